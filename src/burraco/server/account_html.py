"""The HTML of the account's pages (server/account_pages.py): the account page's parts, the profile page's, the
leaderboards' (docs/accounts.md), each text in the page's language from the one catalogue of every text
(:mod:`burraco.lang`, rendered by :func:`burraco.messages.render`).

A page's language is its address's ``?lang=`` (the card room's links carry the language chosen there), else the
signed-in account's profile language, else the first of the browser's ``Accept-Language`` the catalogues have,
else English; every link and form of the page carries it on.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import quote, urlencode

from starlette.requests import HTTPConnection

from ..messages import LANGS, Param, msg, render
from ..rules import PRESETS
from . import profiles, ratings

#: each language's own name, as the card room's menu writes it
LANG_NAMES = {"it": "Italiano", "en": "English", "de": "Deutsch", "pt": "Português", "nl": "Nederlands"}


class Html(str):
    """A parameter of a text that is HTML already (made, and escaped, by this module): put in as is."""


Tr = Callable[..., str]


def texts(lang: str) -> Tr:
    """``tr(code, **params)``: the catalogue's text in ``lang``, HTML-escaped, its :class:`Html` parameters put in
    as they are."""
    def tr(code: str, **params: Any) -> str:
        marks = {k: f"\x00{i}\x00" for i, k in enumerate(params) if isinstance(params[k], Html)}
        plain: dict[str, Param] = {k: marks.get(k, v) for k, v in params.items()}
        out = html.escape(render(msg(code, **plain), lang))
        for k, mark in marks.items():
            out = out.replace(mark, params[k])
        return out
    return tr


class Lang(str):
    """A page's language; ``asked``: the address asked for it (``?lang=``), and the page's links and forms ask for
    it too (otherwise the next page finds it again as this one did, and its addresses stay plain)."""

    asked: bool

    def __new__(cls, code: str, asked: bool) -> Lang:
        out = super().__new__(cls, code)
        out.asked = asked
        return out


def page_lang(request: HTTPConnection, profile: str | None = None) -> Lang:
    """The page's language: ``?lang=``, else the account's profile language, else ``Accept-Language``, else
    English."""
    asked = request.query_params.get("lang", "")
    if asked in LANGS:
        return Lang(asked, True)
    if profile in LANGS:
        return Lang(str(profile), False)
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()[:2]
        if tag in LANGS:
            return Lang(tag, False)
    return Lang("en", False)


def href(path: str, lang: str, **query: str) -> str:
    """An address of these pages in ``lang`` (escaped for an attribute): with ``?lang=`` unless ``lang`` is a
    :class:`Lang` that was not asked for."""
    q = {k: v for k, v in query.items() if v}
    if not isinstance(lang, Lang) or lang.asked:
        q["lang"] = lang
    return html.escape(f"{path}?{urlencode(q)}" if q else path)


def shell(lang: str, title: str, style: str, script: str, body: str, path: str,
          query: Mapping[str, str] | None = None) -> str:
    """A page: its title, the style sheet, the page's script (none: ``""``), its body, and the menu of its
    languages (``path`` with ``query``: the same page in each)."""
    tr = texts(lang)
    module = f'<script type="module" src="{script}"></script>' if script else ""
    langs = " · ".join(
        f'<a href="{href(path, code, **(query or {}))}" hreflang="{code}" lang="{code}"'
        + (' aria-current="true"' if code == lang else "") + f">{LANG_NAMES[code]}</a>" for code in LANGS)
    return (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
            f'<link rel="stylesheet" href="{style}">{module}</head><body class="account"><nav id="languages" '
            f'aria-label="{tr("acc_language")}">{langs}</nav><main><h1>{html.escape(title)}</h1>' + body
            + f'<p><a href="/">{tr("acc_back")}</a> · <a href="{href("/leaderboards", lang)}" id="leaderboards-link">'
            f'{tr("acc_leaderboards_link")}</a></p></main></body></html>')


def form(lang: str, action: str, title: str, csrf: str, fields: list[tuple[str, str, str, str]],
         note: str = "") -> str:
    """One of the account page's forms (``title`` and the fields' labels and ``note``: HTML already)."""
    inputs = "".join(
        f'<label>{label} <input name="{name}" type="{kind}" autocomplete="{auto}" required></label> '
        for name, label, kind, auto in fields)
    extra = f"<p>{note}</p>" if note else ""
    return (f'<form method="post" action="{href("/account/" + action, lang)}" id="{action}"><h2>{title}</h2>{extra}'
            f'<input type="hidden" name="csrf" value="{html.escape(csrf)}">{inputs}'
            f'<button type="submit">{title}</button></form>')


#: the plot's size (SVG user units) and margin
PLOT_W, PLOT_H, PLOT_M = 480, 160, 24


def history_plot(history: list[dict[str, Any]], lang: str = "en") -> str:
    """The rating history as an inline SVG (no script, no style: the pages' Content-Security-Policy allows it): per
    pool, mu − 3 sigma after each rated game, oldest to newest, one line each."""
    by_pool: dict[str, list[float]] = {}
    for h in history:
        by_pool.setdefault(h["pool"], []).append(ratings.ordinal(h["mu"], h["sigma"]))
    values = [v for vs in by_pool.values() for v in vs]
    if not values:
        return ""
    lo, hi = min(values + [0.0]), max(values + [0.0])
    span = (hi - lo) or 1.0
    most = max(len(vs) for vs in by_pool.values())
    colours = ("#1f6f3f", "#8a3b12", "#23507a", "#6b2a6e", "#7a6a12", "#3a3a3a")

    def x(i: int) -> float:
        return PLOT_M + (PLOT_W - 2 * PLOT_M) * (i / max(1, most - 1) if most > 1 else 0.5)

    def y(v: float) -> float:
        return PLOT_H - PLOT_M - (PLOT_H - 2 * PLOT_M) * (v - lo) / span

    parts = [f'<line x1="{PLOT_M}" y1="{y(0.0):.1f}" x2="{PLOT_W - PLOT_M}" y2="{y(0.0):.1f}" stroke="#999" '
             'stroke-dasharray="4 3"/>']
    legend = []
    for k, (pool, vs) in enumerate(sorted(by_pool.items())):
        c = colours[k % len(colours)]
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(vs))
        parts.append(f'<polyline fill="none" stroke="{c}" stroke-width="2" points="{pts}"/>')
        parts += [f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{c}"><title>{html.escape(pool)}: '
                  f'{v:.2f}</title></circle>' for i, v in enumerate(vs)]
        legend.append(f'<text x="{PLOT_M + 120 * k}" y="14" fill="{c}" font-size="12">{html.escape(pool)}</text>')
    parts.append(f'<text x="2" y="{y(hi) + 4:.1f}" font-size="10">{hi:.1f}</text>'
                 f'<text x="2" y="{y(lo) + 4:.1f}" font-size="10">{lo:.1f}</text>')
    tr = texts(lang)
    caption = tr("acc_plot")
    return (f'<figure><svg id="rating-plot" viewBox="0 0 {PLOT_W} {PLOT_H}" width="{PLOT_W}" height="{PLOT_H}" '
            f'role="img" aria-label="{caption}">{"".join(legend + parts)}'
            f'</svg><figcaption>{caption}</figcaption></figure>')


def ratings_html(rated: dict[str, Any], lang: str = "en") -> str:
    """An account's ratings, one line per pool (each linking its leaderboard), and the plot of their history."""
    tr = texts(lang)
    items = "".join(
        "<li>" + tr("acc_rating_line", pool=Html(f'<a href="{href("/leaderboards/" + r["pool"], lang)}">'
                                                 f'{html.escape(r["pool"])}</a>'),
                    ordinal=f'{r["ordinal"]:.1f}', mu=f'{r["mu"]:.2f}', sigma=f'{r["sigma"]:.2f}', games=r["games"])
        + "</li>" for r in rated["ratings"])
    return f'<h2>{tr("acc_ratings")}</h2><ul id="ratings">{items}</ul>' + history_plot(rated["history"], lang)


def games_html(games: list[dict[str, Any]], results: dict[tuple[str, int], dict[str, Any]],
               lang: str = "en") -> str:
    """The tables an account played at, each with the result of every game finished there and its replay."""
    tr = texts(lang)
    status = {"waiting": tr("web_waiting"), "playing": tr("web_playing"), "finished": tr("web_finished"),
              "abandoned": tr("acc_abandoned")}
    said_as = {"won": tr("acc_won"), "lost": tr("acc_lost"), "drawn": tr("acc_drawn")}
    items = []
    for g in games:
        table = html.escape(g["table"])
        played = []
        for n in range(g["finished"]):
            r = results.get((g["table"], n))
            said = ""
            if r is not None:
                totals = ", ".join(f"{html.escape(str(k))} {v}" for k, v in r["totals"].items())
                said = (f'<span class="result" data-result="{r["result"]}">'
                        f'{said_as.get(r["result"], html.escape(str(r["result"])))} ({totals})</span> ')
            played.append(f'<li>{tr("acc_game_n", n=n + 1)}: {said}<a href="/t/{table}/replay/{n}">'
                          f'{tr("acc_replay_n", n=n + 1)}</a></li>')
        state = status.get(g["status"], html.escape(str(g["status"])))
        items.append(f'<li><a href="/t/{table}">{html.escape(str(g["preset"] or g["table"]))}</a> '
                     f'{tr("acc_game_line", name=g["name"])} ({state}{", " + tr("acc_rated_mark") if g["rated"] else ""})'
                     + (f"<ul>{''.join(played)}</ul>" if played else "") + "</li>")
    return f'<h2>{tr("acc_games", n=len(games))}</h2>' + (f'<ul id="games">{"".join(items)}</ul>' if items else "")


def profile_form(p: profiles.Profile, csrf: str, lang: str = "en") -> str:
    """The form of the profile's settings, filled with the present ones."""
    tr = texts(lang)

    def options(choices: dict[str, str], current: str | None) -> str:
        return '<option value="">—</option>' + "".join(
            f'<option value="{c}"{" selected" if c == current else ""}>{label}</option>'
            for c, label in choices.items())

    link = Html(f'<a href="{href("/players/" + quote(p.name), lang)}" id="profile-link">/players/'
                f'{html.escape(p.name)}</a>')
    page = tr("acc_profile_page_public", link=link) if p.public else tr("acc_profile_page_private", link=link)
    return (f'<form method="post" action="{href("/account/profile", lang)}" id="profile"><h2>{tr("acc_your_profile")}'
            f'</h2><p>{page}</p><input type="hidden" name="csrf" value="{html.escape(csrf)}">'
            f'<label>{tr("acc_name")} <input name="name" value="{html.escape(p.name)}" autocomplete="username" '
            'required></label> '
            f'<label>{tr("acc_language")} <select name="language">{options(LANG_NAMES, p.language)}</select></label> '
            f'<label>{tr("acc_rules")} <select name="rules">'
            f'{options({r: tr("acc_preset", rules=r) for r in PRESETS}, p.rules)}</select></label> '
            f'<label>{tr("acc_club")} <input name="club" value="{html.escape(p.club or "")}" maxlength="64" '
            'autocomplete="off"></label> '
            f'<label><input type="checkbox" name="public"{" checked" if p.public else ""}> {tr("acc_public_box")}'
            f'</label> <button type="submit">{tr("acc_save_profile")}</button></form>')


def profile_html(p: profiles.Profile, lang: str) -> str:
    """The top of a profile page: public or private, club, preferred rules, language."""
    tr = texts(lang)
    rules = (f'<dt>{tr("acc_rules")}</dt><dd id="profile-rules" data-rules="{html.escape(p.rules)}">'
             f'{tr("acc_preset", rules=p.rules)} ({html.escape(p.rules)})</dd>') if p.rules else ""
    return (f'<p id="profile-visibility">{tr("acc_public_profile") if p.public else tr("acc_private_profile")}</p>'
            '<dl id="profile">'
            + (f'<dt>{tr("acc_club")}</dt><dd id="profile-club">{html.escape(p.club)}</dd>' if p.club else "")
            + rules
            + (f'<dt>{tr("acc_language")}</dt><dd>{LANG_NAMES.get(p.language, html.escape(p.language))}</dd>'
               if p.language else "")
            + "</dl>")


def leaderboards_html(lang: str, seasons: list[str], current: str, season: str) -> str:
    """The leaderboards' index: every pool (its board of ``season``), and every season since rating began."""
    tr = texts(lang)
    people = [p for p in ratings.pools() if not p.endswith(ratings.BOTS)]
    bots = [p for p in ratings.pools() if p.endswith(ratings.BOTS)]

    def pool_list(pools: list[str], id_: str) -> str:
        return f'<ul id="{id_}">' + "".join(
            f'<li><a href="{href("/leaderboards/" + p, lang, season=season)}" data-pool="{p}">{p}</a></li>'
            for p in pools) + "</ul>"

    def season_item(s: str) -> str:
        label = tr("acc_lb_current", season=s) if s == current else (tr("acc_lb_all") if s == "all" else s)
        mark = ' aria-current="true"' if s == season else ""
        return f'<li><a href="{href("/leaderboards", lang, season=s)}" data-season="{s}"{mark}>{label}</a></li>'

    shown = tr("acc_lb_all") if season == "all" else tr("acc_lb_season", season=season)
    return (f'<p>{tr("acc_lb_intro")}</p><h2>{tr("acc_lb_pools")}: {shown}</h2>' + pool_list(people, "pools")
            + pool_list(bots, "bot-pools")
            + f'<h2>{tr("acc_lb_seasons")}</h2><p>{tr("acc_lb_seasons_note")}</p><ul id="seasons">'
            + "".join(season_item(s) for s in [*seasons, "all"]) + "</ul>")


def leaderboard_html(lang: str, pool: str, season: str, current: str, seasons: list[str],
                     board: list[dict[str, Any]], me: str | None) -> str:
    """One pool's board of a season, best first, the row of the signed-in player ``me`` (a name) marked, with the
    other seasons and the computer players' fixed ratings."""
    tr = texts(lang)
    rows = []
    for k, e in enumerate(board, 1):
        mine = me is not None and e["name"] == me
        name = html.escape(e["name"])
        if e["profile"]:
            name = f'<a href="{href(e["profile"], lang)}">{name}</a>'
        if mine:
            name += f' <strong>{tr("acc_lb_you")}</strong>'
        mark = ' class="you" aria-current="true"' if mine else ""
        rows.append(f'<tr{mark} data-name="{html.escape(e["name"])}">'
                    f'<td>{k}</td><td>{name}</td><td>{e["ordinal"]:.2f}</td><td>{e["mu"]:.2f}</td>'
                    f'<td>{e["sigma"]:.2f}</td><td>{e["games"]}</td></tr>')
    head = (f'<tr><th scope="col">{tr("acc_lb_rank")}</th><th scope="col">{tr("acc_lb_player")}</th>'
            f'<th scope="col">{tr("acc_lb_rating")} (mu − 3 sigma)</th><th scope="col">mu</th><th scope="col">sigma'
            f'</th><th scope="col">{tr("acc_lb_games")}</th></tr>')
    table = (f'<table id="leaderboard"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>' if rows
             else f'<p id="leaderboard-empty">{tr("acc_lb_empty")}</p>')
    shown = tr("acc_lb_all") if season == "all" else tr("acc_lb_season", season=season)
    others = " · ".join(
        (f'<a href="{href("/leaderboards/" + pool, lang, season=s)}" data-season="{s}"'
         + (' aria-current="true"' if s == season else "") + ">"
         + (tr("acc_lb_all") if s == "all" else tr("acc_lb_current", season=s) if s == current else s) + "</a>")
        for s in [*seasons, "all"])
    computers = "".join(f"<li>{html.escape(k)}: mu {v[0]:g}, sigma {v[1]:g}</li>" for k, v in ratings.COMPUTER.items())
    return (f'<h2 id="season">{shown}</h2>{table}<h2>{tr("acc_lb_seasons")}</h2><p id="seasons">{others}</p>'
            f'<h2>{tr("acc_lb_computers")}</h2><ul id="computers">{computers}</ul>')


__all__ = ["Html", "LANG_NAMES", "Lang", "form", "games_html", "history_plot", "href", "leaderboard_html",
           "leaderboards_html", "page_lang", "profile_form", "profile_html", "ratings_html", "shell", "texts"]
