"""The message catalogue of ``burraco play``: every text of the terminal table in Italian, English, German,
Portuguese and Dutch.

A message is looked up by key and formatted with ``str.format`` fields; every language has every key with the
same fields (a test checks it). The language defaults to the system locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``)
and falls back to English; ``burraco play --lang`` overrides it. The engine's own messages (why an action is
refused, the reason of a hint) are codes with parameters (:mod:`burraco.messages`), rendered in the same language
by :meth:`Translator.engine`; a field of a table message may be one of them.

>>> tr = Translator("it")
>>> tr("stock", n=41)
'Tallone: 41'
>>> Translator("de")("cards", n=11)
'11 Karten'
>>> from burraco.messages import msg
>>> Translator("de")("refused", msg=msg("stock_empty"))
'Nicht erlaubt: der Stapel ist leer'
"""

from __future__ import annotations

import locale
import os
import string

from ..messages import Message, render

LANGS = ("en", "it", "de", "pt", "nl")

#: key -> texts in the order of LANGS
MESSAGES: dict[str, tuple[str, str, str, str, str]] = {
    "title": ("Burraco", "Burraco", "Burraco", "Buraco", "Burraco"),
    "seat_you": ("You ({seat})", "Tu ({seat})", "Du ({seat})", "Você ({seat})", "Jij ({seat})"),
    "seat_partner": (
        "Partner ({seat})",
        "Compagno ({seat})",
        "Partner ({seat})",
        "Parceiro ({seat})",
        "Partner ({seat})",
    ),
    "seat_opponent": (
        "Opponent {seat}",
        "Avversario {seat}",
        "Gegner {seat}",
        "Adversário {seat}",
        "Tegenstander {seat}",
    ),
    "cards": ("{n} cards", "{n} carte", "{n} Karten", "{n} cartas", "{n} kaarten"),
    "one_card": ("1 card", "1 carta", "1 Karte", "1 carta", "1 kaart"),
    "stock": ("Stock: {n}", "Tallone: {n}", "Stapel: {n}", "Monte: {n}", "Stapel: {n}"),
    "pile": ("Discard pile ({n}):", "Scarti ({n}):", "Ablage ({n}):", "Lixo ({n}):", "Aflegstapel ({n}):"),
    "pile_closed": (
        "Discard pile: {n} cards, top",
        "Scarti: {n} carte, in cima",
        "Ablage: {n} Karten, oben",
        "Lixo: {n} cartas, no topo",
        "Aflegstapel: {n} kaarten, boven",
    ),
    "pile_empty": (
        "Discard pile: empty",
        "Scarti: vuoto",
        "Ablage: leer",
        "Lixo: vazio",
        "Aflegstapel: leeg",
    ),
    "pozzetti_left": (
        "Pozzetti on the table: {n}",
        "Pozzetti sul tavolo: {n}",
        "Pozzetti auf dem Tisch: {n}",
        "Mortos na mesa: {n}",
        "Pozzetti op tafel: {n}",
    ),
    "poz_taken": (
        "{side} took its pozzetto ({seat})",
        "{side} ha preso il pozzetto ({seat})",
        "{side} hat den Pozzetto genommen ({seat})",
        "{side} pegou o morto ({seat})",
        "{side} heeft de pozzetto gepakt ({seat})",
    ),
    "poz_not": (
        "{side} has not taken its pozzetto",
        "{side} non ha preso il pozzetto",
        "{side} hat den Pozzetto nicht genommen",
        "{side} não pegou o morto",
        "{side} heeft de pozzetto niet gepakt",
    ),
    "hidden_poz": (
        "+{n} pozzetto cards: you see them after your partner's next discard",
        "+{n} carte del pozzetto: le vedi dopo il prossimo scarto del compagno",
        "+{n} Pozzetto-Karten: du siehst sie nach der nächsten Ablage deines Partners",
        "+{n} cartas do morto: você as vê após o próximo descarte do parceiro",
        "+{n} pozzettokaarten: je ziet ze na de volgende afleg van je partner",
    ),
    "melds_of": ("Melds {side}", "Giochi {side}", "Meldungen {side}", "Jogos {side}", "Meldingen {side}"),
    "no_melds": (
        "no melds yet",
        "ancora nessun gioco",
        "noch keine Meldungen",
        "nenhum jogo ainda",
        "nog geen meldingen",
    ),
    "clean": ("clean burraco", "burraco pulito", "sauberer Burraco", "canastra limpa", "schone burraco"),
    "semiclean": (
        "semiclean burraco",
        "burraco semipulito",
        "halbsauberer Burraco",
        "canastra semilimpa",
        "halfschone burraco",
    ),
    "dirty": ("dirty burraco", "burraco sporco", "schmutziger Burraco", "canastra suja", "vuile burraco"),
    "points": ("{n} pts", "{n} punti", "{n} Pkt.", "{n} pts", "{n} ptn"),
    "points_bonus": (
        "{n} pts + {b} bonus",
        "{n} punti + {b} bonus",
        "{n} Pkt. + {b} Bonus",
        "{n} pts + {b} bônus",
        "{n} ptn + {b} bonus",
    ),
    "your_hand": (
        "Your hand ({n})",
        "La tua mano ({n})",
        "Deine Hand ({n})",
        "Sua mão ({n})",
        "Jouw hand ({n})",
    ),
    "sorted_suit": ("by suit", "per seme", "nach Farbe", "por naipe", "op kleur"),
    "sorted_rank": ("by rank", "per valore", "nach Rang", "por valor", "op rang"),
    "selected": (
        "selected: {cards}",
        "selezionate: {cards}",
        "ausgewählt: {cards}",
        "selecionadas: {cards}",
        "gekozen: {cards}",
    ),
    "turn_draw": (
        "Your turn: draw from the stock (d) or take the discard pile (p)",
        "Tocca a te: pesca dal tallone (d) o raccogli gli scarti (p)",
        "Du bist dran: vom Stapel ziehen (d) oder die Ablage nehmen (p)",
        "Sua vez: compre do monte (d) ou pegue o lixo (p)",
        "Jouw beurt: trek van de stapel (d) of pak de aflegstapel (p)",
    ),
    "turn_play": (
        "Your turn: meld (m), add to a meld (1-9), then discard one card (x)",
        "Tocca a te: cala (m), attacca a un gioco (1-9), poi scarta una carta (x)",
        "Du bist dran: melden (m), anlegen (1-9), dann eine Karte ablegen (x)",
        "Sua vez: baixe (m), junte a um jogo (1-9), depois descarte uma carta (x)",
        "Jouw beurt: melden (m), aanleggen (1-9), dan één kaart afleggen (x)",
    ),
    "turn_other": (
        "{who} is playing…",
        "Gioca {who}…",
        "{who} ist am Zug…",
        "{who} está jogando…",
        "{who} is aan de beurt…",
    ),
    "match_score": ("Match", "Partita", "Partie", "Partida", "Partij"),
    "target": ("to {n}", "ai {n}", "bis {n}", "até {n}", "tot {n}"),
    "hand_of": (
        "hand {i} of {n}",
        "smazzata {i} di {n}",
        "Spiel {i} von {n}",
        "mão {i} de {n}",
        "spel {i} van {n}",
    ),
    "hand_no": ("hand {i}", "smazzata {i}", "Spiel {i}", "mão {i}", "spel {i}"),
    "act_draw": (
        "{who} draws from the stock",
        "{who} pesca dal tallone",
        "{who} zieht vom Stapel",
        "{who} compra do monte",
        "{who} trekt van de stapel",
    ),
    "act_pick": (
        "{who} takes the discard pile",
        "{who} raccoglie gli scarti",
        "{who} nimmt die Ablage",
        "{who} pega o lixo",
        "{who} pakt de aflegstapel",
    ),
    "act_meld": (
        "{who} melds {cards}",
        "{who} cala {cards}",
        "{who} meldet {cards}",
        "{who} baixa {cards}",
        "{who} meldt {cards}",
    ),
    "act_add": (
        "{who} adds {cards} to meld {k}",
        "{who} attacca {cards} al gioco {k}",
        "{who} legt {cards} an Meldung {k} an",
        "{who} junta {cards} ao jogo {k}",
        "{who} legt {cards} aan bij melding {k}",
    ),
    "act_discard": (
        "{who} discards {cards}",
        "{who} scarta {cards}",
        "{who} legt {cards} ab",
        "{who} descarta {cards}",
        "{who} legt {cards} af",
    ),
    "act_draw_you": (
        "You draw from the stock",
        "Peschi dal tallone",
        "Du ziehst vom Stapel",
        "Você compra do monte",
        "Je trekt van de stapel",
    ),
    "act_pick_you": (
        "You take the discard pile",
        "Raccogli gli scarti",
        "Du nimmst die Ablage",
        "Você pega o lixo",
        "Je pakt de aflegstapel",
    ),
    "act_meld_you": (
        "You meld {cards}",
        "Cali {cards}",
        "Du meldest {cards}",
        "Você baixa {cards}",
        "Je meldt {cards}",
    ),
    "act_add_you": (
        "You add {cards} to meld {k}",
        "Attacchi {cards} al gioco {k}",
        "Du legst {cards} an Meldung {k} an",
        "Você junta {cards} ao jogo {k}",
        "Je legt {cards} aan bij melding {k}",
    ),
    "act_discard_you": (
        "You discard {cards}",
        "Scarti {cards}",
        "Du legst {cards} ab",
        "Você descarta {cards}",
        "Je legt {cards} af",
    ),
    "act_redraw": (
        "{who} puts the first card on the pile and draws again",
        "{who} mette la prima carta negli scarti e ripesca",
        "{who} legt die erste Karte auf die Ablage und zieht erneut",
        "{who} põe a primeira carta no lixo e compra de novo",
        "{who} legt de eerste kaart op de aflegstapel en trekt opnieuw",
    ),
    "act_redraw_you": (
        "You put the first card on the pile and draw again",
        "Metti la prima carta negli scarti e ripeschi",
        "Du legst die erste Karte auf die Ablage und ziehst erneut",
        "Você põe a primeira carta no lixo e compra de novo",
        "Je legt de eerste kaart op de aflegstapel en trekt opnieuw",
    ),
    "act_swap": (
        "{who} puts {cards} in meld {k} in place of its wild and takes the wild",
        "{who} mette {cards} nel gioco {k} al posto della matta e la riprende",
        "{who} legt {cards} in Meldung {k} anstelle des Jokers und nimmt den Joker",
        "{who} põe {cards} no jogo {k} no lugar do curinga e pega o curinga",
        "{who} legt {cards} in melding {k} in plaats van de joker en neemt de joker",
    ),
    "act_swap_you": (
        "You put {cards} in meld {k} in place of its wild and take the wild",
        "Metti {cards} nel gioco {k} al posto della matta e la riprendi",
        "Du legst {cards} in Meldung {k} anstelle des Jokers und nimmst den Joker",
        "Você põe {cards} no jogo {k} no lugar do curinga e pega o curinga",
        "Je legt {cards} in melding {k} in plaats van de joker en neemt de joker",
    ),
    "do_draw": (
        "draw from the stock",
        "pesca dal tallone",
        "vom Stapel ziehen",
        "compre do monte",
        "trek van de stapel",
    ),
    "do_pick": (
        "take the discard pile",
        "raccogli gli scarti",
        "die Ablage nehmen",
        "pegue o lixo",
        "pak de aflegstapel",
    ),
    "do_meld": ("meld {cards}", "cala {cards}", "{cards} melden", "baixe {cards}", "meld {cards}"),
    "do_add": (
        "add {cards} to meld {k}",
        "attacca {cards} al gioco {k}",
        "{cards} an Meldung {k} anlegen",
        "junte {cards} ao jogo {k}",
        "leg {cards} aan bij melding {k}",
    ),
    "do_discard": (
        "discard {cards}",
        "scarta {cards}",
        "{cards} ablegen",
        "descarte {cards}",
        "leg {cards} af",
    ),
    "do_redraw": (
        "put the first card on the pile and draw again",
        "metti la prima carta negli scarti e ripesca",
        "die erste Karte auf die Ablage legen und erneut ziehen",
        "ponha a primeira carta no lixo e compre de novo",
        "leg de eerste kaart op de aflegstapel en trek opnieuw",
    ),
    "do_swap": (
        "put {cards} in meld {k} in place of its wild and take the wild",
        "metti {cards} nel gioco {k} al posto della matta e riprendila",
        "{cards} in Meldung {k} anstelle des Jokers legen und den Joker nehmen",
        "ponha {cards} no jogo {k} no lugar do curinga e pegue o curinga",
        "leg {cards} in melding {k} in plaats van de joker en neem de joker",
    ),
    "do_timeout": (
        "call time-out",
        "chiama il tempo scaduto",
        "Zeitablauf ausrufen",
        "peça tempo esgotado",
        "time-out roepen",
    ),
    "act_other": ("{who}: {text}", "{who}: {text}", "{who}: {text}", "{who}: {text}", "{who}: {text}"),
    "act_timeout": ("Time-out", "Time-out", "Zeitablauf", "Tempo esgotado", "Time-out"),
    "refused": (
        "Not allowed: {msg}",
        "Non consentito: {msg}",
        "Nicht erlaubt: {msg}",
        "Não permitido: {msg}",
        "Niet toegestaan: {msg}",
    ),
    "not_your_turn": (
        "Wait: it is not your turn",
        "Aspetta: non tocca a te",
        "Warte: du bist nicht dran",
        "Espere: não é sua vez",
        "Wacht: je bent niet aan de beurt",
    ),
    "select_first": (
        "Select cards first: click them, or move with ←/→ and press space",
        "Prima seleziona le carte: cliccale, o muoviti con ←/→ e premi spazio",
        "Wähle zuerst Karten: anklicken, oder mit ←/→ bewegen und Leertaste drücken",
        "Selecione as cartas primeiro: clique nelas, ou mova com ←/→ e aperte espaço",
        "Kies eerst kaarten: klik erop, of beweeg met ←/→ en druk op spatie",
    ),
    "discard_one": (
        "Select exactly one card to discard",
        "Seleziona una sola carta da scartare",
        "Wähle genau eine Karte zum Ablegen",
        "Selecione exatamente uma carta para descartar",
        "Kies precies één kaart om af te leggen",
    ),
    "no_meld": (
        "Your side has no meld {k}",
        "La tua coppia non ha il gioco {k}",
        "Deine Seite hat keine Meldung {k}",
        "Sua dupla não tem o jogo {k}",
        "Jouw kant heeft geen melding {k}",
    ),
    "hint_plain": (
        "Hint: {action}, type {cmd} ({reason})",
        "Suggerimento: {action}, scrivi {cmd} ({reason})",
        "Tipp: {action}, tippe {cmd} ({reason})",
        "Dica: {action}, digite {cmd} ({reason})",
        "Tip: {action}, typ {cmd} ({reason})",
    ),
    "hint": (
        "Hint: {action} ({reason})",
        "Suggerimento: {action} ({reason})",
        "Tipp: {action} ({reason})",
        "Dica: {action} ({reason})",
        "Tip: {action} ({reason})",
    ),
    "undone": (
        "Undone: back to your previous decision",
        "Annullato: di nuovo alla tua decisione precedente",
        "Rückgängig: zurück zu deiner letzten Entscheidung",
        "Desfeito: de volta à sua decisão anterior",
        "Ongedaan: terug naar je vorige beslissing",
    ),
    "nothing_to_undo": (
        "Nothing to undo: you have not played yet",
        "Niente da annullare: non hai ancora giocato",
        "Nichts rückgängig zu machen: du hast noch nicht gespielt",
        "Nada a desfazer: você ainda não jogou",
        "Niets ongedaan te maken: je hebt nog niet gespeeld",
    ),
    "score_undo": (
        "u undo your last move",
        "u annulla la tua ultima mossa",
        "u letzten Zug zurücknehmen",
        "u desfazer sua última jogada",
        "u je laatste zet ongedaan maken",
    ),
    "score_undo_plain": (
        "u to undo your last move",
        "u per annullare la tua ultima mossa",
        "u, um deinen letzten Zug zurückzunehmen",
        "u para desfazer sua última jogada",
        "u om je laatste zet ongedaan te maken",
    ),
    "end_prompt": (
        "Press Enter to finish",
        "Premi Invio per finire",
        "Enter zum Beenden",
        "Aperte Enter para terminar",
        "Druk op Enter om af te sluiten",
    ),
    "pace_instant": ("instant", "istantaneo", "sofort", "instantâneo", "direct"),
    "pace_fast": ("fast", "veloce", "schnell", "rápido", "snel"),
    "pace_normal": ("normal", "normale", "normal", "normal", "normaal"),
    "pace_slow": ("slow", "lento", "langsam", "lento", "langzaam"),
    "pace_seconds": (
        "{s} s per move",
        "{s} s per mossa",
        "{s} s pro Zug",
        "{s} s por jogada",
        "{s} s per zet",
    ),
    "pace_now": (
        "Pace of the computer: {pace}",
        "Ritmo del computer: {pace}",
        "Tempo des Computers: {pace}",
        "Ritmo do computador: {pace}",
        "Tempo van de computer: {pace}",
    ),
    "btn_speed_now": ("pace: {pace}", "ritmo: {pace}", "Tempo: {pace}", "ritmo: {pace}", "tempo: {pace}"),
    "bad_pace": (
        "Unknown pace {pace!r}: write instant, fast, normal, slow or seconds per move (0 to 30)",
        "Ritmo sconosciuto {pace!r}: scrivi instant, fast, normal, slow o i secondi per mossa (da 0 a 30)",
        "Unbekanntes Tempo {pace!r}: schreibe instant, fast, normal, slow oder Sekunden pro Zug (0 bis 30)",
        "Ritmo desconhecido {pace!r}: escreva instant, fast, normal, slow ou segundos por jogada (0 a 30)",
        "Onbekend tempo {pace!r}: schrijf instant, fast, normal, slow of seconden per zet (0 tot 30)",
    ),
    "sorted_now": (
        "Hand sorted {how}",
        "Mano ordinata {how}",
        "Hand sortiert {how}",
        "Mão ordenada {how}",
        "Hand gesorteerd {how}",
    ),
    "end_closed": (
        "{who} closed the hand",
        "{who} ha chiuso",
        "{who} hat geschlossen",
        "{who} bateu",
        "{who} heeft gesloten",
    ),
    "end_stock": (
        "The stock ran out",
        "Il tallone è finito",
        "Der Stapel ist aufgebraucht",
        "O monte acabou",
        "De stapel is op",
    ),
    "end_stalemate": (
        "Stalemate: the hand ends",
        "Stallo: la smazzata finisce",
        "Patt: das Spiel endet",
        "Empate: a mão termina",
        "Patstelling: het spel eindigt",
    ),
    "end_timeout": (
        "Time-out: the hand ends",
        "Time-out: la smazzata finisce",
        "Zeitablauf: das Spiel endet",
        "Tempo esgotado: a mão termina",
        "Time-out: het spel eindigt",
    ),
    "end_cap": (
        "The turn limit was reached",
        "Raggiunto il limite di turni",
        "Das Zuglimit ist erreicht",
        "O limite de turnos foi atingido",
        "De beurtlimiet is bereikt",
    ),
    "score_title": (
        "Hand {i}: the score",
        "Smazzata {i}: il punteggio",
        "Spiel {i}: die Wertung",
        "Mão {i}: a contagem",
        "Spel {i}: de score",
    ),
    "row_melds": (
        "cards on the table",
        "carte calate",
        "Karten auf dem Tisch",
        "cartas na mesa",
        "kaarten op tafel",
    ),
    "row_bonuses": (
        "burraco bonuses",
        "premi burraco",
        "Burraco-Prämien",
        "bônus de canastras",
        "burracopremies",
    ),
    "row_closing": ("closing", "chiusura", "Schließen", "batida", "sluiten"),
    "row_hand": (
        "cards in hand",
        "carte in mano",
        "Karten in der Hand",
        "cartas na mão",
        "kaarten in de hand",
    ),
    "row_pozzetto": (
        "pozzetto not taken",
        "pozzetto non preso",
        "Pozzetto nicht genommen",
        "morto não pego",
        "pozzetto niet gepakt",
    ),
    "row_total": ("hand total", "totale smazzata", "Summe des Spiels", "total da mão", "totaal van het spel"),
    "row_match": ("match total", "totale partita", "Gesamtstand", "total da partida", "totaal van de partij"),
    "row_vp": ("victory points", "punti vittoria", "Siegpunkte", "pontos de vitória", "overwinningspunten"),
    "next_hand": (
        "Press Enter for the next hand",
        "Premi Invio per la prossima smazzata",
        "Enter für das nächste Spiel",
        "Aperte Enter para a próxima mão",
        "Druk op Enter voor het volgende spel",
    ),
    "match_won": (
        "Match over: {side} wins",
        "Partita finita: vince {side}",
        "Partie beendet: {side} gewinnt",
        "Partida encerrada: {side} vence",
        "Partij voorbij: {side} wint",
    ),
    "match_drawn": (
        "Match over: a draw",
        "Partita finita: pareggio",
        "Partie beendet: unentschieden",
        "Partida encerrada: empate",
        "Partij voorbij: gelijkspel",
    ),
    "match_summary": (
        "Hands played: {hands} · {a_side} {a} – {b_side} {b}",
        "Smazzate giocate: {hands} · {a_side} {a} – {b_side} {b}",
        "Gespielte Spiele: {hands} · {a_side} {a} – {b_side} {b}",
        "Mãos jogadas: {hands} · {a_side} {a} – {b_side} {b}",
        "Gespeelde spellen: {hands} · {a_side} {a} – {b_side} {b}",
    ),
    "press_quit": (
        "Press q to quit",
        "Premi q per uscire",
        "q zum Beenden",
        "Aperte q para sair",
        "Druk op q om te stoppen",
    ),
    "your_side": ("your side", "la tua coppia", "deine Seite", "sua dupla", "jouw kant"),
    "saved_at": (
        "Game saved in {path}: continue it with burraco play --resume",
        "Partita salvata in {path}: continuala con burraco play --resume",
        "Partie gespeichert in {path}: weiter mit burraco play --resume",
        "Partida salva em {path}: continue com burraco play --resume",
        "Partij bewaard in {path}: ga verder met burraco play --resume",
    ),
    "resumed": (
        "Resumed the game saved in {path}",
        "Ripresa la partita salvata in {path}",
        "Partie aus {path} fortgesetzt",
        "Partida retomada de {path}",
        "Partij hervat uit {path}",
    ),
    "cheat_player": (
        "The cheating player sees hidden cards: it is a measurement tool, not an opponent",
        "Il giocatore che bara vede le carte coperte: è uno strumento di misura, non un avversario",
        "Der schummelnde Spieler sieht verdeckte Karten: ein Messwerkzeug, kein Gegner",
        "O jogador trapaceiro vê as cartas escondidas: é uma ferramenta de medida, não um adversário",
        "De valsspeler ziet verborgen kaarten: een meetinstrument, geen tegenstander",
    ),
    "bad_player": (
        "Unknown computer player {spec!r}: write easy, medium, hard, heuristic:LEVEL, ismcts, ismcts:N,"
        " ismcts:SECONDSs or random",
        "Giocatore del computer sconosciuto {spec!r}: scrivi easy, medium, hard, heuristic:LIVELLO, ismcts,"
        " ismcts:N, ismcts:SECONDIs o random",
        "Unbekannter Computerspieler {spec!r}: schreibe easy, medium, hard, heuristic:STUFE, ismcts, ismcts:N,"
        " ismcts:SEKUNDENs oder random",
        "Jogador do computador desconhecido {spec!r}: escreva easy, medium, hard, heuristic:NÍVEL, ismcts,"
        " ismcts:N, ismcts:SEGUNDOSs ou random",
        "Onbekende computerspeler {spec!r}: schrijf easy, medium, hard, heuristic:NIVEAU, ismcts, ismcts:N,"
        " ismcts:SECONDENs of random",
    ),
    "not_play_record": (
        "This record was not saved by burraco play (it has no 'play' header)",
        "Questa registrazione non è stata salvata da burraco play (non ha l'intestazione 'play')",
        "Diese Aufzeichnung wurde nicht von burraco play gespeichert (ihr fehlt der Kopf 'play')",
        "Este registro não foi salvo pelo burraco play (não tem o cabeçalho 'play')",
        "Dit verslag is niet door burraco play bewaard (het heeft geen 'play'-kop)",
    ),
    "cannot_continue": (
        "Cannot continue this game: {why}",
        "Impossibile continuare questa partita: {why}",
        "Diese Partie kann nicht fortgesetzt werden: {why}",
        "Não é possível continuar esta partida: {why}",
        "Deze partij kan niet verder: {why}",
    ),
    "no_unfinished": (
        "No unfinished game in {path}",
        "Nessuna partita da finire in {path}",
        "Keine unvollendete Partie in {path}",
        "Nenhuma partida por terminar em {path}",
        "Geen onafgemaakte partij in {path}",
    ),
    "cannot_read": (
        "Cannot read {path}: {why}",
        "Impossibile leggere {path}: {why}",
        "{path} kann nicht gelesen werden: {why}",
        "Não é possível ler {path}: {why}",
        "{path} kan niet gelezen worden: {why}",
    ),
    "bad_record": (
        "Not a valid record: {why}",
        "Registrazione non valida: {why}",
        "Keine gültige Aufzeichnung: {why}",
        "Registro inválido: {why}",
        "Geen geldig verslag: {why}",
    ),
    "no_hands_to_watch": (
        "The record has no hands to watch",
        "La registrazione non ha smazzate da guardare",
        "Die Aufzeichnung hat keine Spiele zum Ansehen",
        "O registro não tem mãos para ver",
        "Het verslag heeft geen spellen om te bekijken",
    ),
    "bad_seat": (
        "--seat {seat!r} is not a seat of this record (seats are {seats})",
        "--seat {seat!r} non è un posto di questa registrazione (i posti sono {seats})",
        "--seat {seat!r} ist kein Platz dieser Aufzeichnung (die Plätze sind {seats})",
        "--seat {seat!r} não é um lugar deste registro (os lugares são {seats})",
        "--seat {seat!r} is geen plaats van dit verslag (de plaatsen zijn {seats})",
    ),
    "watch_refused": (
        "hand {h}, action {i} ({action}): {msg}",
        "smazzata {h}, azione {i} ({action}): {msg}",
        "Spiel {h}, Aktion {i} ({action}): {msg}",
        "mão {h}, ação {i} ({action}): {msg}",
        "spel {h}, zet {i} ({action}): {msg}",
    ),
    "help_title": (
        "Keys and commands",
        "Tasti e comandi",
        "Tasten und Befehle",
        "Teclas e comandos",
        "Toetsen en commando's",
    ),
    "help_lines": (
        "d draw · p take the pile · ←/→ move · space select · m meld the selected cards · 1-9 add them to meld k"
        " (or click the meld) · x discard · h hint · u undo · o sort · s pace of the computer · r rules · ? help · q quit",
        "d pesca · p raccogli gli scarti · ←/→ muovi · spazio seleziona · m cala le carte scelte · 1-9 attaccale al"
        " gioco k (o clicca il gioco) · x scarta · h suggerimento · u annulla · o ordina · s ritmo del computer · r regole · ? aiuto · q esci",
        "d ziehen · p Ablage nehmen · ←/→ bewegen · Leertaste wählen · m gewählte Karten melden · 1-9 an Meldung k"
        " anlegen (oder Meldung anklicken) · x ablegen · h Tipp · u rückgängig · o sortieren · s Tempo des Computers · r Regeln · ? Hilfe"
        " · q beenden",
        "d comprar · p pegar o lixo · ←/→ mover · espaço selecionar · m baixar as cartas escolhidas · 1-9 juntar ao"
        " jogo k (ou clique no jogo) · x descartar · h dica · u desfazer · o ordenar · s ritmo do computador · r regras · ? ajuda · q sair",
        "d trekken · p aflegstapel pakken · ←/→ bewegen · spatie kiezen · m gekozen kaarten melden · 1-9 aanleggen"
        " bij melding k (of klik de melding) · x afleggen · h tip · u ongedaan · o sorteren · s tempo van de computer · r regels · ? hulp"
        " · q stoppen",
    ),
    "plain_help": (
        "Commands: d (draw), p (take the pile), m CARDS (meld, e.g. m 3h 4h 5h), a K CARDS (add to meld K),"
        " x CARD (discard), h (hint), u (undo), o (sort), t (show the table), l (legal moves), s [PACE] (pace of the computer: instant, fast,"
        " normal, slow or seconds per move; s alone takes the next one), r (rules),"
        " q (quit). Cards: rank A 2-9 T J Q K then suit h d c s; JK is the joker.",
        "Comandi: d (pesca), p (raccogli gli scarti), m CARTE (cala, es. m 3h 4h 5h), a K CARTE (attacca al"
        " gioco K), x CARTA (scarta), h (suggerimento), u (annulla), o (ordina), t (mostra il tavolo), l (mosse"
        " lecite), s [RITMO] (ritmo del computer: instant, fast, normal, slow o secondi per mossa; s da solo passa"
        " al successivo), r (regole), q (esci). Carte: valore A 2-9 T J Q K poi seme h d c s (cuori, quadri, fiori,"
        " picche); JK è il jolly.",
        "Befehle: d (ziehen), p (Ablage nehmen), m KARTEN (melden, z. B. m 3h 4h 5h), a K KARTEN (an Meldung K"
        " anlegen), x KARTE (ablegen), h (Tipp), u (rückgängig), o (sortieren), t (Tisch zeigen), l (erlaubte"
        " Züge), s [TEMPO] (Tempo des Computers: instant, fast, normal, slow oder Sekunden pro Zug; s allein"
        " nimmt das nächste), r (Regeln), q (beenden). Karten: Rang A 2-9 T J Q K, dann Farbe h d c s (Herz, Karo, Kreuz,"
        " Pik); JK ist der Joker.",
        "Comandos: d (comprar), p (pegar o lixo), m CARTAS (baixar, ex. m 3h 4h 5h), a K CARTAS (juntar ao jogo"
        " K), x CARTA (descartar), h (dica), u (desfazer), o (ordenar), t (mostrar a mesa), l (jogadas"
        " permitidas), s [RITMO] (ritmo do computador: instant, fast, normal, slow ou segundos por jogada; s"
        " sozinho passa ao próximo), r (regras), q (sair). Cartas: valor A 2-9 T J Q K e naipe h d c s (copas, ouros, paus,"
        " espadas); JK é o curinga.",
        "Commando's: d (trekken), p (aflegstapel pakken), m KAARTEN (melden, bv. m 3h 4h 5h), a K KAARTEN"
        " (aanleggen bij melding K), x KAART (afleggen), h (tip), u (ongedaan), o (sorteren), t (tafel tonen),"
        " l (toegestane zetten), s [TEMPO] (tempo van de computer: instant, fast, normal, slow of seconden per"
        " zet; s alleen neemt het volgende), r (regels), q (stoppen). Kaarten: rang A 2-9 T J Q K, dan kleur h d c s"
        " (harten, ruiten, klaveren, schoppen); JK is de joker.",
    ),
    "prompt": (
        "Your move (? for help)",
        "La tua mossa (? per aiuto)",
        "Dein Zug (? für Hilfe)",
        "Sua jogada (? para ajuda)",
        "Jouw zet (? voor hulp)",
    ),
    "unknown_command": (
        "Unknown command {cmd!r}: type ? for help",
        "Comando sconosciuto {cmd!r}: scrivi ? per aiuto",
        "Unbekannter Befehl {cmd!r}: ? für Hilfe",
        "Comando desconhecido {cmd!r}: digite ? para ajuda",
        "Onbekend commando {cmd!r}: typ ? voor hulp",
    ),
    "bad_cards": (
        "Write the cards as rank then suit, e.g. 7h Td JK",
        "Scrivi le carte come valore e seme, es. 7h Td JK",
        "Schreibe Karten als Rang und Farbe, z. B. 7h Td JK",
        "Escreva as cartas como valor e naipe, ex. 7h Td JK",
        "Schrijf kaarten als rang en kleur, bv. 7h Td JK",
    ),
    "legal_moves": (
        "Legal moves: {moves}",
        "Mosse lecite: {moves}",
        "Erlaubte Züge: {moves}",
        "Jogadas permitidas: {moves}",
        "Toegestane zetten: {moves}",
    ),
    "rules_title": ("Rules: {name}", "Regole: {name}", "Regeln: {name}", "Regras: {name}", "Regels: {name}"),
    "rule_players": ("{n} players", "{n} giocatori", "{n} Spieler", "{n} jogadores", "{n} spelers"),
    "rule_target": (
        "Match to {n} points",
        "Partita ai {n} punti",
        "Partie bis {n} Punkte",
        "Partida até {n} pontos",
        "Partij tot {n} punten",
    ),
    "rule_hands": (
        "Match of {n} hands, victory points",
        "Partita di {n} smazzate, punti vittoria",
        "Partie über {n} Spiele, Siegpunkte",
        "Partida de {n} mãos, pontos de vitória",
        "Partij van {n} spellen, overwinningspunten",
    ),
    "rule_values": (
        "Card points: joker {jk}, 2 {two}, ace {ace}, K–8 {high}, 7–3 {low}",
        "Valore carte: jolly {jk}, pinella {two}, asso {ace}, K–8 {high}, 7–3 {low}",
        "Kartenwerte: Joker {jk}, 2 {two}, Ass {ace}, K–8 {high}, 7–3 {low}",
        "Valor das cartas: curinga {jk}, 2 {two}, ás {ace}, K–8 {high}, 7–3 {low}",
        "Kaartwaarden: joker {jk}, 2 {two}, aas {ace}, H–8 {high}, 7–3 {low}",
    ),
    "rule_wilds": (
        "Wilds: jokers and 2s, at most {n} per meld",
        "Matte: jolly e pinelle, al massimo {n} per gioco",
        "Joker: Joker und 2er, höchstens {n} pro Meldung",
        "Curingas: coringas e 2, no máximo {n} por jogo",
        "Jokers: jokers en tweeën, hoogstens {n} per melding",
    ),
    "rule_min_meld": (
        "First meld: at least {n} points",
        "Prima calata: almeno {n} punti",
        "Erste Meldung: mindestens {n} Punkte",
        "Primeira baixada: pelo menos {n} pontos",
        "Eerste melding: minstens {n} punten",
    ),
    "rule_pile_open": (
        "The discard pile is open: you see every card in it",
        "Gli scarti sono scoperti: si vedono tutte le carte",
        "Die Ablage ist offen: alle Karten sind sichtbar",
        "O lixo é aberto: todas as cartas são visíveis",
        "De aflegstapel is open: alle kaarten zijn zichtbaar",
    ),
    "rule_pile_closed": (
        "The discard pile is closed: only its top card is seen",
        "Gli scarti sono coperti: si vede solo la carta in cima",
        "Die Ablage ist verdeckt: nur die oberste Karte ist sichtbar",
        "O lixo é fechado: só a carta do topo é visível",
        "De aflegstapel is dicht: alleen de bovenste kaart is zichtbaar",
    ),
    "rule_pickup": (
        "Taking the pile: {what}",
        "Raccogliere gli scarti: {what}",
        "Ablage nehmen: {what}",
        "Pegar o lixo: {what}",
        "Aflegstapel pakken: {what}",
    ),
    "pickup_none": (
        "always allowed",
        "sempre consentito",
        "immer erlaubt",
        "sempre permitido",
        "altijd toegestaan",
    ),
    "pickup_open": (
        "you must then meld or add",
        "poi devi calare o attaccare",
        "danach musst du melden oder anlegen",
        "depois é preciso baixar ou juntar",
        "daarna moet je melden of aanleggen",
    ),
    "pickup_top": (
        "you must use its top card at once",
        "devi usare subito la carta in cima",
        "du musst die oberste Karte sofort verwenden",
        "é preciso usar a carta do topo na hora",
        "je moet de bovenste kaart meteen gebruiken",
    ),
    "rule_close": (
        "Closing needs the pozzetto taken and a {what}; closing bonus {n}",
        "Per chiudere servono il pozzetto e un {what}; premio chiusura {n}",
        "Schließen braucht den Pozzetto und einen {what}; Schlussprämie {n}",
        "Para bater é preciso o morto e uma {what}; bônus de batida {n}",
        "Sluiten vraagt de pozzetto en een {what}; sluitpremie {n}",
    ),
    "any_burraco": ("burraco", "burraco", "Burraco", "canastra", "burraco"),
    "rule_bonuses": (
        "Burraco bonuses: clean {clean}, semiclean {semi}, dirty {dirty}",
        "Premi burraco: pulito {clean}, semipulito {semi}, sporco {dirty}",
        "Burraco-Prämien: sauber {clean}, halbsauber {semi}, schmutzig {dirty}",
        "Bônus de canastra: limpa {clean}, semilimpa {semi}, suja {dirty}",
        "Burracopremies: schoon {clean}, halfschoon {semi}, vuil {dirty}",
    ),
    "rule_bonuses2": (
        "Burraco bonuses: clean {clean}, dirty {dirty}",
        "Premi burraco: pulito {clean}, sporco {dirty}",
        "Burraco-Prämien: sauber {clean}, schmutzig {dirty}",
        "Bônus de canastra: limpa {clean}, suja {dirty}",
        "Burracopremies: schoon {clean}, vuil {dirty}",
    ),
    "rule_poz_penalty": (
        "A side that never takes its pozzetto loses {n}",
        "Chi non prende il pozzetto perde {n}",
        "Wer den Pozzetto nie nimmt, verliert {n}",
        "Quem não pega o morto perde {n}",
        "Wie de pozzetto nooit pakt, verliest {n}",
    ),
    "rule_lone": (
        "A card taken from a one-card pile may not be discarded in the same turn",
        "La carta presa da uno scarto di una sola carta non si può riscartare nello stesso turno",
        "Eine aus einer Ein-Karten-Ablage genommene Karte darf im selben Zug nicht abgelegt werden",
        "A carta pega de um lixo de uma só carta não pode ser descartada no mesmo turno",
        "Een kaart van een aflegstapel van één kaart mag niet in dezelfde beurt worden afgelegd",
    ),
    "close_screen": (
        "Press Escape or r to close",
        "Premi Esc o r per chiudere",
        "Esc oder r zum Schließen",
        "Aperte Esc ou r para fechar",
        "Druk op Esc of r om te sluiten",
    ),
    "watch_status": (
        "Replay: action {i} of {n}, hand {h} of {hn} · ←/→ step · Home/End · 1-4 seat · q quit",
        "Replay: azione {i} di {n}, smazzata {h} di {hn} · ←/→ passo · Home/Fine · 1-4 posto · q esci",
        "Wiedergabe: Aktion {i} von {n}, Spiel {h} von {hn} · ←/→ Schritt · Pos1/Ende · 1-4 Platz · q beenden",
        "Replay: ação {i} de {n}, mão {h} de {hn} · ←/→ passo · Home/End · 1-4 lugar · q sair",
        "Herhaling: zet {i} van {n}, spel {h} van {hn} · ←/→ stap · Home/End · 1-4 plaats · q stoppen",
    ),
    "seen_from": (
        "seen from {seat}",
        "visto da {seat}",
        "aus Sicht von {seat}",
        "visto por {seat}",
        "gezien vanuit {seat}",
    ),
    "seat_plain": ("{seat}", "{seat}", "{seat}", "{seat}", "{seat}"),
    "btn_draw": ("draw", "pesca", "ziehen", "comprar", "trekken"),
    "btn_pick": ("take pile", "raccogli", "Ablage", "pegar lixo", "stapel"),
    "btn_meld": ("meld", "cala", "melden", "baixar", "melden"),
    "btn_discard": ("discard", "scarta", "ablegen", "descartar", "afleggen"),
    "btn_hint": ("hint", "aiuto", "Tipp", "dica", "tip"),
    "btn_undo": ("undo", "annulla", "zurück", "desfazer", "terug"),
    "btn_sort": ("sort", "ordina", "sortieren", "ordenar", "sorteren"),
    "btn_rules": ("rules", "regole", "Regeln", "regras", "regels"),
    "btn_speed": ("pace", "ritmo", "Tempo", "ritmo", "tempo"),
}


def default_lang() -> str:
    """The language of the system locale when it is one of LANGS, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        v = os.environ.get(var)
        if v:
            code = v.split(":")[0].split(".")[0].split("_")[0].lower()
            return code if code in LANGS else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    code = loc.split("_")[0].lower()
    return code if code in LANGS else "en"


def check_lang(lang: str | None) -> str:
    """``lang`` when it is known, the system default when None; raises ValueError for an unknown one."""
    if lang is None:
        return default_lang()
    code = lang.strip().lower()
    if code not in LANGS:
        raise ValueError(f"unknown language {lang!r} (languages are {', '.join(LANGS)})")
    return code


class Translator:
    """Formats the messages of one language: ``tr(key, **fields)``."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = check_lang(lang)
        self._i = LANGS.index(self.lang)

    def __call__(self, key: str, **fields: object) -> str:
        """The message ``key`` with its fields (an engine :class:`~burraco.messages.Message` field is rendered in
        this language)."""
        f = {k: render(v, self.lang) if isinstance(v, Message) else v for k, v in fields.items()}
        return MESSAGES[key][self._i].format(**f)

    def engine(self, m: Message) -> str:
        """An engine message (a refusal, a hint's reason) in this language."""
        return render(m, self.lang)

    def cards(self, n: int) -> str:
        """``11 cards``, ``1 card``."""
        return self("one_card") if n == 1 else self("cards", n=n)


def fields_of(text: str) -> set[str]:
    """The ``str.format`` field names of a message (for the catalogue test)."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


__all__ = ["LANGS", "MESSAGES", "Translator", "check_lang", "default_lang", "fields_of"]
