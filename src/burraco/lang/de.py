"""Deutsch (Burraco: Pozzetto, Joker und Zweien als Wildcards, Satz, Sequenz)."""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "text": "{text}",
    "action_refused": "{action}: {reason}",
    "not_a_string": "eine Aktion muss ein Text sein, nicht {type}",
    "empty_action": "leere Aktion",
    "not_an_action": "'{action}' ist keine Aktion: schreibe '<Platz> <Verb> [Karten]'",
    "unknown_seat_named": "'{action}': unbekannter Platz '{seat}' (die Plätze sind {seats})",
    "unknown_verb": "'{action}': unbekanntes Verb '{verb}' (die Verben sind draw, pick, meld, add, discard; redraw "
    "und swap mit ihren Hausregeln)",
    "takes_no_arguments": "'{action}': '{verb}' hat keine Argumente",
    "discard_one_card": "'{action}': 'discard' nimmt genau eine Karte",
    "meld_needs_cards": "'{action}': 'meld' braucht die auszulegenden Karten",
    "add_syntax": "'{action}': schreibe '{seat} {verb} <Nummer der Meldung> <Karten>'",
    "melds_from_one": "'{action}': Meldungen sind ab 1 nummeriert",
    "swap_syntax": "'{action}': 'swap' nennt eine Meldung und eine Karte",
    "bad_card_in_action": "'{action}': {reason}",
    "not_a_card": "'{text}' ist keine Karte (schreibe Rang und Farbe, z. B. 7h, Td, As, oder JK für einen Joker)",
    "hand_over": "das Spiel ist vorbei ({end:end})",
    "no_timeouts": "timeout: diese Regeln kennen kein Zeitende (nur eine feste Zahl von Spielen)",
    "timeout_called": "timeout: das Zeitende wurde in diesem Spiel schon ausgerufen (§0.1 C-29)",
    "unknown_seat": "unbekannter Platz '{seat}'",
    "holds_none": "{seat} hat keine {card}",
    "holds_only": "{seat} hat nur {count}× {card}",
    "no_such_meld": "Partei {side} hat keine Meldung {meld} (sie hat {count})",
    "not_your_turn": "{turn} ist am Zug, nicht {seat} (§3.1)",
    "already_drew": "{seat} hat in diesem Zug schon eine Karte genommen (§3.2)",
    "must_draw_first": "{seat} muss zuerst vom Stapel ziehen oder den Ablagestapel aufnehmen (§3.2)",
    "no_cards_named": "keine Karten genannt",
    "match_over": "die Partie ist vorbei",
    "hand_not_ended": "das laufende Spiel ist nicht zu Ende",
    "no_redraw": "diese Regeln kennen kein Nachziehen (Hausregel first_player_redraw, §14.1 Zeile 36)",
    "redraw_only_first": "nur der erste Spieler darf direkt nach seinem ersten Zug vom Stapel einmal nachziehen",
    "stock_empty": "der Stapel ist leer",
    "stock_last_cards": "der Stapel ist bei seinen letzten Karten",
    "swap_not_allowed": "nach diesen Regeln bleibt ein ausgelegter Joker in seiner Meldung (§5.1; Hausregel "
    "wild_may_return_to_hand, C-18)",
    "swap_one_card": "ein Tausch gibt genau eine natürliche Karte",
    "swap_no_wild": "Meldung {meld} hat keinen Joker zum Zurücknehmen (nur der Joker einer Sequenz kann getauscht "
    "werden)",
    "swap_wrong_card": "{card} ist nicht die Karte, für die der Joker von Meldung {meld} steht",
    "swap_dead_end": "danach ließe sich der Zug nicht beenden (§3.4: behalte eine Karte zum Ablegen; kein Joker als "
    "letzte Ablage)",
    "pile_empty": "der Ablagestapel ist leer",
    "pile_last_cards": "der Stapel ist bei seinen letzten Karten: der Ablagestapel darf nicht mehr aufgenommen "
    "werden (§6.7)",
    "pile_one_card": "diese Regeln verbieten, den Ablagestapel mit einer Karte auf der Hand aufzunehmen (§6.5, C-9)",
    "pile_top_unusable": "die oberste Karte {card} könnte in diesem Zug nicht verwendet werden (§6.3: sie muss "
    "ausgelegt werden)",
    "pile_must_meld": "wer den Ablagestapel aufnimmt, muss in diesem Zug auslegen oder anlegen, und hier ginge das "
    "nicht (§6.3)",
    "pile_cannot_open": "die Partei könnte in diesem Zug nicht mit {points} Punkten eröffnen (§14.7)",
    "pending_must_meld": "nach dem Aufnehmen des Ablagestapels muss er in diesem Zug mindestens eine Karte auslegen "
    "oder anlegen (§6.3)",
    "pending_top_card": "die aufgenommene oberste Karte {card} muss in diesem Zug verwendet werden (§6.3)",
    "pending_first_meld": "die erste Meldung der Partei muss mindestens {points} Punkte zählen; sie hat {laid} "
    "(§14.7)",
    "lone_card_discard": "{card} kam von einem Ablagestapel aus einer Karte und darf in diesem Zug nicht abgelegt "
    "werden (§6.4)",
    "pozzetto_needs_burraco": "die Partei braucht einen Burraco, bevor sie ihren Pozzetto nehmen darf, also kann "
    "sie nicht ausgehen",
    "no_pozzetto_left": "für die Partei ist kein Pozzetto übrig, also kann sie nicht ausgehen (§0.1 brasilianisches "
    "Stapelende)",
    "close_needs_burraco": "die Partei darf nur mit einem {kind:needed} auf dem Tisch schließen (§8.1)",
    "closing_wild": "die letzte Ablage darf kein Joker sein ({card}) (§6.6, §8.1.3)",
    "last_meld_no_pozzetto": "die Partei kann jetzt keinen Pozzetto nehmen, also darf er seine letzte Karte nicht "
    "auslegen",
    "last_meld_needs_discard": "die Partei hat ihren Pozzetto: die letzte Karte auszulegen hieße ohne Ablage zu "
    "schließen (§8.2)",
    "go_out_needs_burraco": "zum Ausgehen braucht es einen {kind:needed} auf dem Tisch (§8.1)",
    "morto_not_reached": "{seat} hat den Morto mit dem Abwurf genommen, und er zählt erst ab seinem nächsten Zug "
    "als genommen: bis dahin darf die Partei nicht ausgehen (§0.1 C-22)",
    "no_morto_left": "für die Partei ist kein Morto übrig, also kann sie nicht ausgehen",
    "pozzetto_before_opening": "in den Pozzetto zu gehen, bevor die erste Meldung {points} Punkte erreicht, ist "
    "nicht erlaubt (§0.1)",
    "leaves_last_card": "es bliebe nur {card}, und der Zug ließe sich nicht beenden (§3.4: behalte eine Karte zum "
    "Ablegen; schließe nur mit Pozzetto, Burraco und einer Ablage, die kein Joker ist)",
    "dead_end_because": "danach ließe sich der Zug nicht beenden: {reason}",
    "dead_end": "danach ließe sich der Zug nicht beenden (§3.4)",
    "first_meld_minimum": "die erste Meldung der Partei muss mindestens {points} Punkte zählen (§14.7)",
    "top_card_unused": "die aufgenommene oberste Karte muss verwendet werden (§6.3)",
    "not_a_meld": "{cards} ist keine Meldung: {reason}",
    "cannot_add": "{cards} kann nicht an {meld} angelegt werden: {reason}",
    "too_few_cards": "eine Meldung braucht mindestens 3 Karten",
    "set_of_twos": "ein Satz Zweien ist nicht erlaubt (jede 2 in einem Satz ist ein Joker)",
    "only_wilds": "sie hat {count} Joker und höchstens eine natürliche 2 (eine Meldung hat einen Joker und "
    "mindestens zwei natürliche Karten)",
    "no_sets": "diese Regeln erlauben nur Sequenzen, keine Sätze",
    "set_rank_forbidden": "ein Satz {rank:ranks} ist nach diesen Regeln nicht erlaubt (Sätze nur aus "
    "{allowed:ranks})",
    "set_wilds": "sie hat {count} Joker ({wilds}); eine Meldung darf einen haben",
    "set_too_long": "ein Satz hat höchstens {max} Karten",
    "rank_or_suit": "ein Satz braucht Karten eines Rangs und eine Sequenz Karten einer Farbe",
    "wrong_suit": "{card} ist kein {suit:suit} und kein Joker",
    "twice_in_sequence": "{card} kommt in einer Sequenz zweimal vor",
    "meld_has_card": "die Meldung hat schon eine {card}",
    "one_ace": "nach diesen Regeln hat eine Sequenz nur ein natürliches Ass",
    "too_many_aces": "zu viele Asse für eine Sequenz",
    "sequence_wilds": "sie hat {count} Joker; eine Meldung darf einen haben (eine 2 der Farbe ist nur auf ihrem "
    "eigenen Platz natürlich)",
    "ace_place_taken": "der Platz des Asses ist besetzt",
    "gaps": "die Karten lassen {gaps} {gaps|Lücke|Lücken}, und es {wilds|gibt|gibt} {wilds} Joker, um "
    "{gaps|sie|sie} zu füllen",
    "sequence_complete": "die Sequenz ist vollständig: für den Joker ist kein Platz",
    "few_naturals": "sie hat weniger als zwei natürliche Karten",
    "sequence_too_long": "eine Sequenz hat höchstens {max} Karten",
    "wrong_rank": "{card} ist {rank:rank_a} und kein Joker",
    "set_would_hold_wilds": "der Satz hätte {count} Joker; eine Meldung darf einen haben (ein Joker ersetzt nie "
    "einen Joker)",
    "duplicate_set": "{cards} darf nicht eröffnet werden: die Partei hat schon einen Satz {rank:ranks}; lege "
    "dort an (§4.3, FIBUR Art. 30)",
    "duplicate_sequence": "{cards} darf nicht eröffnet werden: die Partei hat schon die gleiche Sequenz {other} "
    "(§4.4.7, §0.1 C-16)",
    "hint_draw": "ziehe vom Stapel",
    "hint_draw_not_pile": "ziehe vom Stapel: der Ablagestapel ({size} {size|Karte|Karten}) lohnt sich jetzt nicht",
    "hint_pick": "nimm den Ablagestapel auf: {size} {size|Karte|Karten}, oben {top}; {useful} der sichtbaren {useful|passt|passen} zu deiner "
    "Hand oder den Meldungen deiner Partei",
    "hint_meld": "lege {cards} aus: eine neue Meldung ({what}) mit {count} Karten",
    "hint_add": "lege {cards} an Meldung {meld} an ({what}), jetzt {count} Karten",
    "hint_burraco": "{text}, ein {kind:burraco} Burraco",
    "hint_goes_down": "{text}; das leert deine Hand: du nimmst den Pozzetto und spielst weiter",
    "hint_discard_close": "lege {card} ab und schließe: deine Partei hat ihren Pozzetto und einen Burraco",
    "hint_discard_last": "lege deine letzte Karte {card} ab und nimm den Pozzetto",
    "hint_discard": "lege {card} ab: die Karte, die deine Hand am wenigsten braucht",
    "hint_swap": "gib {card} an Meldung {meld} und nimm ihren Joker auf die Hand",
    "hint_redraw": "lege deine erste Karte auf den Ablagestapel und ziehe eine andere",
    "set_of": "ein Satz {rank:ranks}",
    "sequence_of": "eine Sequenz in {suit:suits}",
    "a_meld": "eine Meldung",
    # ----- the terminal table (burraco play) --------------------------------------------------------------------
    # ----- the moves log (burraco.narrate) ----------------------------------------------------------------------
    "log_draw": "{who} zieht vom Stapel",
    "log_draw_you": "Du ziehst {card} vom Stapel",
    "log_redraw": "{who} legt {card} auf die Ablage und zieht neu",
    "log_redraw_you": "Du legst {card} auf die Ablage und ziehst neu",
    "log_pick_one": "{who} nimmt {card} von der Ablage",
    "log_pick_one_you": "Du nimmst {card} von der Ablage",
    "log_pick": "{who} nimmt die Ablage ({n} Karten, oben {top})",
    "log_pick_you": "Du nimmst die Ablage ({n} Karten, oben {top})",
    "log_meld": "{who} legt {cards} aus",
    "log_meld_you": "Du legst {cards} aus",
    "log_add": "{who} legt {cards} an {meld} an",
    "log_add_you": "Du legst {cards} an {meld} an",
    "log_swap": "{who} legt {cards} in {meld} und nimmt dessen Joker",
    "log_swap_you": "Du legst {cards} in {meld} und nimmst dessen Joker",
    "log_discard": "{who} wirft {card} ab",
    "log_discard_you": "Du wirfst {card} ab",
    "log_pozzetto_direct": "{who} nimmt den Pozzetto und spielt weiter",
    "log_pozzetto_direct_you": "Du nimmst deinen Pozzetto und spielst weiter",
    "log_pozzetto_discard": "{who} nimmt den Pozzetto mit dem Abwurf (spielt ihn im nächsten Zug)",
    "log_pozzetto_discard_you": "Du nimmst deinen Pozzetto mit dem Abwurf (du spielst ihn im nächsten Zug)",
    "log_closed": "{who} macht Schluss",
    "log_closed_you": "Du machst Schluss",
    "log_hand_end": "Das Spiel endet: {end:end}",
    "log_timeout": "Time-out: noch eine Runde, dann endet das Spiel",
    # ----- the browser table (burraco serve) --------------------------------------------------------------------
}

WORDS: dict[str, dict[str, str]] = {
    "joker": {"JK": "Joker"},  # the joker as a player names it (cards as symbols)
    #: the presets by name, in words (lobbies, menus)
    "preset": {
        "italian": "Italienisches Burraco (FIBUR), 4 Spieler, bis 2005",
        "italian-tournament": "Italienisches Burraco, Turnier: 3 Spiele, Siegpunkte",
        "italian-2p": "Italienisches Burraco zu zweit, bis 2005",
        "international": "Internationales Burraco (Sätze nur aus Assen und Dreien)",
        "brazilian": "Brasilianisches Buraco (aberto), 4 Spieler, bis 3000",
        "brazilian-2p": "Brasilianisches Buraco (aberto) zu zweit, bis 3000",
        "brazilian-fechado": "Brasilianisches Buraco fechado (verdeckte Ablage)",
        "brazilian-stbl": "Brasilianisches Buraco STBL (saubere Canastra, keine Sätze)",
    },
    #: the computer players by level
    "level": {
        "random": "Computer (Zufallszüge)",
        "easy": "Computer (leicht)",
        "medium": "Computer (mittel)",
        "hard": "Computer (schwer)",
        "ismcts": "Computer (Suche, am stärksten)",
    },
    "join": {"and": " und "},
    "suit": {"h": "Herz", "d": "Karo", "c": "Kreuz", "s": "Pik"},
    "suits": {"h": "Herz", "d": "Karo", "c": "Kreuz", "s": "Pik"},
    "rank_a": {
        "1": "kein Ass",
        "2": "keine 2",
        "3": "keine 3",
        "4": "keine 4",
        "5": "keine 5",
        "6": "keine 6",
        "7": "keine 7",
        "8": "keine 8",
        "9": "keine 9",
        "10": "keine 10",
        "11": "kein Bube",
        "12": "keine Dame",
        "13": "kein König",
    },
    "ranks": {
        "1": "Asse",
        "2": "Zweien",
        "3": "Dreien",
        "4": "Vieren",
        "5": "Fünfen",
        "6": "Sechsen",
        "7": "Siebenen",
        "8": "Achten",
        "9": "Neunen",
        "10": "Zehnen",
        "11": "Buben",
        "12": "Damen",
        "13": "Könige",
    },
    "end": {
        "closed": "geschlossen",
        "stock": "Stapel aufgebraucht",
        "stalemate": "Patt",
        "timeout": "Zeitende",
        "cap": "Zuglimit",
    },
    "needed": {"any": "Burraco", "clean": "sauberen Burraco"},
    "burraco": {"clean": "sauberer", "semiclean": "halbsauberer", "dirty": "schmutziger"},
}
