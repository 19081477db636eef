"""Nederlands (Burraco: pozzetto, joker en tweeën als wilde kaarten, set, reeks)."""

from __future__ import annotations

TEMPLATES: dict[str, str] = {
    "text": "{text}",
    "action_refused": "{action}: {reason}",
    "not_a_string": "een actie moet tekst zijn, geen {type}",
    "empty_action": "lege actie",
    "not_an_action": "'{action}' is geen actie: schrijf '<plaats> <werkwoord> [kaarten]'",
    "unknown_seat_named": "'{action}': onbekende plaats '{seat}' (de plaatsen zijn {seats})",
    "unknown_verb": "'{action}': onbekend werkwoord '{verb}' (de werkwoorden zijn draw, pick, meld, add, discard; "
    "redraw en swap met hun huisregels)",
    "takes_no_arguments": "'{action}': '{verb}' heeft geen argumenten",
    "discard_one_card": "'{action}': 'discard' neemt precies één kaart",
    "meld_needs_cards": "'{action}': 'meld' heeft de uit te leggen kaarten nodig",
    "add_syntax": "'{action}': schrijf '{seat} {verb} <nummer van de combinatie> <kaarten>'",
    "melds_from_one": "'{action}': combinaties zijn genummerd vanaf 1",
    "swap_syntax": "'{action}': 'swap' noemt één combinatie en één kaart",
    "bad_card_in_action": "'{action}': {reason}",
    "not_a_card": "'{text}' is geen kaart (schrijf rang en kleur, bv. 7h, Td, As, of JK voor een joker)",
    "hand_over": "het spel is afgelopen ({end:end})",
    "no_timeouts": "timeout: deze regels kennen geen tijdslimiet (alleen een vast aantal spellen)",
    "timeout_called": "timeout: de tijdslimiet is in dit spel al afgeroepen (§0.1 C-29)",
    "unknown_seat": "onbekende plaats '{seat}'",
    "holds_none": "{seat} heeft geen {card}",
    "holds_only": "{seat} heeft maar {count}× {card}",
    "no_such_meld": "partij {side} heeft geen combinatie {meld} (ze heeft er {count})",
    "not_your_turn": "{turn} is aan de beurt, niet {seat} (§3.1)",
    "already_drew": "{seat} heeft deze beurt al een kaart genomen (§3.2)",
    "must_draw_first": "{seat} moet eerst een kaart van de stapel trekken of de aflegstapel oppakken (§3.2)",
    "no_cards_named": "geen kaarten genoemd",
    "match_over": "de partij is afgelopen",
    "hand_not_ended": "het lopende spel is niet afgelopen",
    "no_redraw": "deze regels kennen geen opnieuw trekken (huisregel first_player_redraw, §14.1 rij 36)",
    "redraw_only_first": "alleen de eerste speler mag, direct na zijn eerste trek van de stapel, één keer opnieuw "
    "trekken",
    "stock_empty": "de stapel is leeg",
    "stock_last_cards": "de stapel is bij zijn laatste kaarten",
    "swap_not_allowed": "volgens deze regels blijft een uitgelegde joker in zijn combinatie (§5.1; huisregel "
    "wild_may_return_to_hand, C-18)",
    "swap_one_card": "een ruil geeft één natuurlijke kaart",
    "swap_no_wild": "combinatie {meld} heeft geen joker om terug te nemen (alleen de joker van een reeks kan "
    "geruild worden)",
    "swap_wrong_card": "{card} is niet de kaart waarvoor de joker van combinatie {meld} staat",
    "swap_dead_end": "daarna kon de beurt niet worden afgemaakt (§3.4: houd een kaart om af te leggen; geen joker "
    "als laatste aflegkaart)",
    "pile_empty": "de aflegstapel is leeg",
    "pile_last_cards": "de stapel is bij zijn laatste kaarten: de aflegstapel mag niet meer worden opgepakt (§6.7)",
    "pile_one_card": "deze regels verbieden de aflegstapel op te pakken met één kaart in de hand (§6.5, C-9)",
    "pile_top_unusable": "de bovenste kaart {card} kon deze beurt niet gebruikt worden (§6.3: ze moet worden "
    "uitgelegd)",
    "pile_must_meld": "wie de aflegstapel oppakt, moet deze beurt uitleggen of aanleggen, en hier kon dat niet "
    "(§6.3)",
    "pile_cannot_open": "de partij kon deze beurt niet openen met {points} punten (§14.7)",
    "pending_must_meld": "na het oppakken van de aflegstapel moet hij deze beurt minstens één kaart uitleggen of "
    "aanleggen (§6.3)",
    "pending_top_card": "de opgepakte bovenste kaart {card} moet deze beurt gebruikt worden (§6.3)",
    "pending_first_meld": "de eerste uitleg van de partij moet minstens {points} punten tellen; ze telt {laid} "
    "(§14.7)",
    "lone_card_discard": "{card} kwam van een aflegstapel van één kaart en mag deze beurt niet worden afgelegd "
    "(§6.4)",
    "pozzetto_needs_burraco": "de partij heeft een burraco nodig voor ze haar pozzetto mag nemen, dus ze kan niet "
    "uitgaan",
    "no_pozzetto_left": "er is geen pozzetto over voor de partij, dus ze kan niet uitgaan (§0.1 Braziliaans einde "
    "van de stapel)",
    "close_needs_burraco": "de partij mag alleen sluiten met een {kind:needed} op tafel (§8.1)",
    "closing_wild": "de laatste aflegkaart mag geen joker zijn ({card}) (§6.6, §8.1.3)",
    "last_meld_no_pozzetto": "de partij kan nu geen pozzetto nemen, dus hij mag zijn laatste kaart niet uitleggen",
    "last_meld_needs_discard": "de partij heeft haar pozzetto: de laatste kaart uitleggen zou sluiten zonder "
    "aflegkaart (§8.2)",
    "go_out_needs_burraco": "uitgaan vraagt een {kind:needed} op tafel (§8.1)",
    "morto_not_reached": "{seat} nam de morto met zijn laatste afleg en die telt pas als genomen vanaf zijn "
    "volgende beurt: tot dan mag de partij niet uitgaan (§0.1 C-22)",
    "no_morto_left": "er is geen morto over voor de partij, dus ze kan niet uitgaan",
    "pozzetto_before_opening": "naar de pozzetto gaan voor de eerste uitleg {points} punten haalt, is niet "
    "toegestaan (§0.1)",
    "leaves_last_card": "er zou alleen {card} overblijven, en de beurt kon niet worden afgemaakt (§3.4: houd een "
    "kaart om af te leggen; sluit alleen met pozzetto, burraco en een aflegkaart die geen joker is)",
    "dead_end_because": "daarna kon de beurt niet worden afgemaakt: {reason}",
    "dead_end": "daarna kon de beurt niet worden afgemaakt (§3.4)",
    "first_meld_minimum": "de eerste uitleg van de partij moet minstens {points} punten tellen (§14.7)",
    "top_card_unused": "de opgepakte bovenste kaart moet gebruikt worden (§6.3)",
    "not_a_meld": "{cards} is geen combinatie: {reason}",
    "cannot_add": "{cards} kan niet worden aangelegd bij {meld}: {reason}",
    "too_few_cards": "een combinatie heeft minstens 3 kaarten nodig",
    "set_of_twos": "een set tweeën is niet toegestaan (elke 2 in een set is een joker)",
    "only_wilds": "ze heeft {count} jokers en hoogstens één natuurlijke 2 (een combinatie heeft één joker en "
    "minstens twee natuurlijke kaarten)",
    "no_sets": "deze regels staan alleen reeksen toe, geen sets",
    "set_rank_forbidden": "een set {rank:ranks} is volgens deze regels niet toegestaan (sets alleen van "
    "{allowed:ranks})",
    "set_wilds": "ze heeft {count} jokers ({wilds}); een combinatie mag er één hebben",
    "set_too_long": "een set heeft hoogstens {max} kaarten",
    "rank_or_suit": "een set vraagt kaarten van één rang en een reeks kaarten van één kleur",
    "wrong_suit": "{card} is geen {suit:suit} en geen joker",
    "twice_in_sequence": "{card} komt twee keer voor in een reeks",
    "meld_has_card": "de combinatie heeft al een {card}",
    "one_ace": "volgens deze regels heeft een reeks maar één natuurlijke aas",
    "too_many_aces": "te veel azen voor één reeks",
    "sequence_wilds": "ze heeft {count} jokers; een combinatie mag er één hebben (een 2 van de kleur is alleen op "
    "zijn eigen plaats natuurlijk)",
    "ace_place_taken": "de plaats van de aas is bezet",
    "gaps": "de kaarten laten {gaps} {gaps|gat|gaten} en er {wilds|is|zijn} {wilds} {wilds|joker|jokers} om "
    "{gaps|het|ze} te vullen",
    "sequence_complete": "de reeks is compleet: er is geen plaats voor de joker",
    "few_naturals": "ze heeft minder dan twee natuurlijke kaarten",
    "sequence_too_long": "een reeks heeft hoogstens {max} kaarten",
    "wrong_rank": "{card} is geen {rank:rank_a} en geen joker",
    "set_would_hold_wilds": "de set zou {count} jokers hebben; een combinatie mag er één hebben (een joker vervangt "
    "nooit een joker)",
    "duplicate_set": "{cards} mag niet geopend worden: de partij heeft al een set {rank:ranks}; leg daar aan (§4.3, "
    "FIBUR art.30)",
    "duplicate_sequence": "{cards} mag niet geopend worden: de partij heeft al de identieke reeks {other} (§4.4.7, "
    "§0.1 C-16)",
    "hint_draw": "trek van de stapel",
    "hint_draw_not_pile": "trek van de stapel: de aflegstapel ({size} {size|kaart|kaarten}) is het nu niet waard",
    "hint_pick": "pak de aflegstapel op: {size} {size|kaart|kaarten}, bovenop {top}; {useful} van de zichtbare {useful|past|passen} bij je hand "
    "of de combinaties van je partij",
    "hint_meld": "leg {cards} uit: een nieuwe combinatie ({what}) van {count} kaarten",
    "hint_add": "leg {cards} aan bij combinatie {meld} ({what}), nu {count} kaarten",
    "hint_burraco": "{text}, een {kind:burraco} burraco",
    "hint_goes_down": "{text}; dat maakt je hand leeg: je neemt de pozzetto en speelt door",
    "hint_discard_close": "leg {card} af en sluit: je partij heeft haar pozzetto en een burraco",
    "hint_discard_last": "leg je laatste kaart, {card}, af en neem de pozzetto",
    "hint_discard": "leg {card} af: de kaart die je hand het minst nodig heeft",
    "hint_swap": "geef {card} aan combinatie {meld} en neem de joker ervan terug in je hand",
    "hint_redraw": "leg je eerste kaart op de aflegstapel en trek een andere",
    "set_of": "een set {rank:ranks}",
    "sequence_of": "een reeks {suit:suits}",
    "a_meld": "een combinatie",
    # ----- the terminal table (burraco play) --------------------------------------------------------------------
    # ----- the moves log (burraco.narrate) ----------------------------------------------------------------------
    "log_draw": "{who} trekt van de stapel",
    "log_draw_you": "Je trekt {card} van de stapel",
    "log_redraw": "{who} legt {card} op de aflegstapel en trekt opnieuw",
    "log_redraw_you": "Je legt {card} op de aflegstapel en trekt opnieuw",
    "log_pick_one": "{who} pakt {card} van de aflegstapel",
    "log_pick_one_you": "Je pakt {card} van de aflegstapel",
    "log_pick": "{who} pakt de aflegstapel ({n} kaarten, boven {top})",
    "log_pick_you": "Je pakt de aflegstapel ({n} kaarten, boven {top})",
    "log_meld": "{who} legt {cards} uit",
    "log_meld_you": "Je legt {cards} uit",
    "log_add": "{who} legt {cards} aan bij {meld}",
    "log_add_you": "Je legt {cards} aan bij {meld}",
    "log_swap": "{who} legt {cards} in {meld} en neemt de joker",
    "log_swap_you": "Je legt {cards} in {meld} en neemt de joker",
    "log_discard": "{who} legt {card} af",
    "log_discard_you": "Je legt {card} af",
    "log_pozzetto_direct": "{who} neemt de pozzetto en speelt door",
    "log_pozzetto_direct_you": "Je neemt je pozzetto en speelt door",
    "log_pozzetto_discard": "{who} neemt de pozzetto met de afleg (speelt hem de volgende beurt)",
    "log_pozzetto_discard_you": "Je neemt je pozzetto met de afleg (je speelt hem de volgende beurt)",
    "log_closed": "{who} gaat uit",
    "log_closed_you": "Je gaat uit",
    "log_hand_end": "Het spel eindigt: {end:end}",
    "log_timeout": "Time-out: nog één ronde, dan eindigt het spel",
    # ----- the browser table (burraco serve) --------------------------------------------------------------------
}

WORDS: dict[str, dict[str, str]] = {
    "joker": {"JK": "Joker"},  # the joker as a player names it (cards as symbols)
    #: the presets by name, in words (lobbies, menus)
    "preset": {
        "italian": "Italiaans Burraco (FIBUR), 4 spelers, tot 2005",
        "italian-tournament": "Italiaans Burraco, toernooi: 3 spellen, winstpunten",
        "italian-2p": "Italiaans Burraco met z'n tweeën, tot 2005",
        "international": "Internationaal Burraco (sets alleen van azen en drieën)",
        "brazilian": "Braziliaans Buraco (aberto), 4 spelers, tot 3000",
        "brazilian-2p": "Braziliaans Buraco (aberto) met z'n tweeën, tot 3000",
        "brazilian-fechado": "Braziliaans Buraco fechado (gesloten aflegstapel)",
        "brazilian-stbl": "Braziliaans Buraco STBL (schone canastra, geen sets)",
    },
    #: the computer players by level
    "level": {
        "random": "Computer (willekeurige zetten)",
        "easy": "Computer (makkelijk)",
        "medium": "Computer (gemiddeld)",
        "hard": "Computer (moeilijk)",
        "ismcts": "Computer (zoeken, de sterkste)",
    },
    "join": {"and": " en "},
    "suit": {"h": "harten", "d": "ruiten", "c": "klaveren", "s": "schoppen"},
    "suits": {"h": "harten", "d": "ruiten", "c": "klaveren", "s": "schoppen"},
    "rank_a": {
        "1": "aas",
        "2": "2",
        "3": "3",
        "4": "4",
        "5": "5",
        "6": "6",
        "7": "7",
        "8": "8",
        "9": "9",
        "10": "10",
        "11": "boer",
        "12": "vrouw",
        "13": "heer",
    },
    "ranks": {
        "1": "azen",
        "2": "tweeën",
        "3": "drieën",
        "4": "vieren",
        "5": "vijven",
        "6": "zessen",
        "7": "zevens",
        "8": "achten",
        "9": "negens",
        "10": "tienen",
        "11": "boeren",
        "12": "vrouwen",
        "13": "heren",
    },
    "end": {
        "closed": "gesloten",
        "stock": "stapel op",
        "stalemate": "patstelling",
        "timeout": "tijdslimiet",
        "cap": "zettenlimiet",
    },
    "needed": {"any": "burraco", "clean": "schone burraco"},
    "burraco": {"clean": "schone", "semiclean": "halfschone", "dirty": "vuile"},
}
