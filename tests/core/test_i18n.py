"""French and English (issue #20): the catalogs are complete both ways, every rule code
the engine can raise has French (found by scanning the package, so a new rule without a
translation fails here), and the texts the engine, the bots and the scorer make in
English come out in French at the edge."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from helpers import play_random
from rummykit import new_game
from rummykit.bots.hints import explain
from rummykit.errors import IllegalMoveError
from rummykit.i18n import (
    LANGS,
    card_name,
    card_text,
    engine_fr,
    error_text,
    hint_text,
    illegal_text,
    lang_from_env,
    note_text,
    round_text,
    rules_summary,
    tr,
    trn,
)
from rummykit.i18n.rulebook_fr import SOURCES_FR
from rummykit.i18n.ui_fr import FR
from rummykit.rulebook import rules_summary as summary_en
from rummykit.rules import PRESET_SOURCES, PRESETS
from rummykit.variants.rummikub import arrangement_code

PKG = Path(__file__).resolve().parents[2] / "src" / "rummykit"
STATIC = PKG / "web" / "static"
FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def _calls(names: tuple[str, ...], under: Path = PKG) -> list[tuple[str, ast.expr | None, Path]]:
    """Every call ``name("code", message)`` in the package: the code, the message
    expression and the file."""
    out = []
    for path in sorted(under.rglob("*.py")):
        if "i18n" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        # a code may be a module constant (RULE = "some_rule") rather than a literal
        consts = {
            t.id: n.value.value
            for n in tree.body
            if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Constant)
            and isinstance(n.value.value, str)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = (
                f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            )
            if name not in names:
                continue
            # the code is the first argument, or the second after a connection
            for i, first in enumerate(node.args[:2]):
                code = first.value if isinstance(first, ast.Constant) else None
                if isinstance(first, ast.Name):
                    code = consts.get(first.id)
                if isinstance(code, str):
                    msg = node.args[i + 1] if len(node.args) > i + 1 else None
                    out.append((code, msg, path))
                    break
    return out


def _samples(msg: ast.expr | None) -> list[str]:
    """The texts a message expression can make, each placeholder filled with a number
    and with nothing (enough for the catalog's patterns to be checked)."""
    if isinstance(msg, ast.Constant) and isinstance(msg.value, str):
        return [msg.value]
    if isinstance(msg, ast.JoinedStr):
        return [
            "".join(
                v.value if isinstance(v, ast.Constant) else fill
                for v in msg.values
                if isinstance(v, ast.Constant | ast.FormattedValue)
            )
            for fill in ("7", "")
        ]
    return []


RULE_CALLS = _calls(("IllegalMoveError", "err"))
PROTOCOL_CALLS = _calls(("ProtocolError", "error"), PKG / "web")  # the server's codes


def test_the_scan_finds_the_engines_rule_codes() -> None:
    codes = {c for c, _m, _p in RULE_CALLS}
    assert {"draw_first", "opening_minimum", "knock_limit", "deep_discard_must_use"} <= codes
    assert len(codes) >= 40


def test_every_rule_code_has_french() -> None:
    """A rule the engine (or a variant, or the web page's own checks) can raise with no
    French text fails here: add it to ``rummykit/i18n/engine_fr.py``."""
    missing = sorted({f"{c} ({p.name})" for c, _m, p in RULE_CALLS if c not in engine_fr.RULES})
    assert missing == []


def test_every_message_with_parameters_keeps_them_in_french() -> None:
    """A rule code with several messages, or numbers in its message, has patterns: each
    message the source can make matches one, so the French keeps the numbers."""
    unmatched = []
    for code, msg, path in RULE_CALLS:
        patterns = engine_fr.PATTERNS.get(code)
        samples = _samples(msg)
        if patterns is None or not samples:
            continue
        if not any(engine_fr.match(patterns, s) is not None for s in samples):
            unmatched.append((code, path.name, samples[0]))
    assert unmatched == []


def test_every_protocol_code_has_french() -> None:
    codes = {c for c, _m, _p in PROTOCOL_CALLS if re.fullmatch(r"[a-z_]+", c)}
    assert {"not_your_turn", "stale", "spectator"} <= codes
    missing = sorted(c for c in codes if c not in engine_fr.PROTOCOL and c not in engine_fr.RULES)
    assert missing == []
    unmatched = []
    for code, msg, path in PROTOCOL_CALLS:
        patterns = engine_fr.PROTOCOL_PATTERNS.get(code)
        samples = _samples(msg)
        if not patterns or not samples or samples[0].startswith("7: "):  # pydantic's own
            continue
        if not any(engine_fr.match(patterns, s) for s in samples):
            unmatched.append((code, path.name, samples[0]))
    assert unmatched == []


def test_every_catalog_text_has_the_same_fields_in_both_languages() -> None:
    """The French of a text names the same ``{fields}`` as its English key."""
    wrong = [k for k, v in FR.items() if set(FIELD.findall(k)) != set(FIELD.findall(v))]
    assert wrong == []
    for patterns in [*engine_fr.PATTERNS.values(), *engine_fr.PROTOCOL_PATTERNS.values()]:
        for pattern, template in patterns:
            assert set(FIELD.findall(template)) <= set(re.compile(pattern).groupindex), pattern


def test_errors_in_french_with_their_numbers() -> None:
    g = new_game("rami51", 2, seed=3)
    with pytest.raises(IllegalMoveError) as info:
        g.apply_action(10**6)
    assert illegal_text(info.value, "en") == info.value.reason
    assert illegal_text(info.value, "fr").startswith("ce numéro d'action n'existe pas")
    assert error_text(
        "opening_minimum", "an opening must total at least 51 points (seed 003)", "fr"
    ) == ("une ouverture doit totaliser au moins 51 points")
    assert (
        error_text(
            "knock_limit", "discarding Q♠ leaves deadwood 12, above the knock limit 10", "fr"
        )
        == "défausser D♠ laisse 12 points isolés, plus que la limite pour frapper (10)"
    )
    assert error_text(
        "knock_limit",
        "you cannot knock now: your deadwood is 3 and the knock limit is 0 (gin only)",
        "fr",
    ).endswith("la limite pour frapper est 0 (gin seulement)")
    assert error_text("not_your_turn", "it is not your turn", "fr") == "ce n'est pas votre tour"
    assert error_text("some_new_code", "a new English text", "fr") == "a new English text"


@pytest.mark.parametrize("preset", ["basic", "rami51", "gin", "rum500", "kalooki"])
def test_every_hint_reason_comes_out_in_french(preset: str) -> None:
    """Every move's reason, in positions of random games, has French (no part of a
    reason is left in English)."""
    rng = random.Random(7)
    seen = 0
    for seed in range(3):
        g = new_game(preset, 2, seed=seed)
        for _ in range(60):
            if g.is_over():
                break
            v = g.view(g.current)
            for move in v.legal[:25]:
                for unicode in (False, True):
                    reason = explain(v, move, v.game.solver, unicode)
                    fr = hint_text(reason, "fr")
                    assert engine_fr.hint_fr(reason) is not None, reason
                    assert fr != reason
                    seen += 1
            g.apply(rng.choice(g.legal_moves()))
    assert seen > 100


def test_hints_in_french_examples() -> None:
    assert hint_text("take 9♥: it completes a meld (7♥ 8♥ 9♥)", "fr") == (
        "prenez le 9♥ : il complète une combinaison (7♥ 8♥ 9♥)"
    )
    assert hint_text(
        "discard K♠: it completes nothing and nobody took the kings thrown before", "fr"
    ) == ("défaussez le R♠ : il ne complète rien et personne n'a pris les rois jetés avant")
    assert hint_text("draw from the stock: the discard pile is empty", "en") == (
        "draw from the stock: the discard pile is empty"
    )


@pytest.mark.parametrize(
    "preset", ["basic", "cg101", "rami51", "gin_match", "rum500", "kalooki", "rummikub"]
)
def test_round_ends_and_notes_in_french(preset: str) -> None:
    g = new_game(preset, 3 if preset in ("rum500", "kalooki", "rami51") else 2, seed=11)
    play_random(g, random.Random(5))
    assert g.results
    for r in g.results:
        fr = round_text(r, g.names, "fr")
        assert fr and fr != round_text(r, g.names, "en")
        for p in r.players:
            for note in p.notes:
                assert engine_fr.match(engine_fr.NOTES, note) is not None, note
                assert note_text(note, "en") == note


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_rules_summary_in_french_for_every_preset(name: str) -> None:
    fr, en = rules_summary(PRESETS[name], "fr"), summary_en(PRESETS[name])
    assert len(fr) == len(en) and fr != en
    assert rules_summary(PRESETS[name], "en") == en
    assert set(PRESET_SOURCES) <= set(SOURCES_FR)
    if PRESETS[name].opening_minimum:
        assert any("points" in line and "ouverture" in line for line in fr)


def test_every_page_text_has_french() -> None:
    """Every key of the page's catalog (messages.js) is in both languages, and every
    key the page's modules look up is in it: Rummikub's board (tiles.js) among them.
    (The browser test checks the first half in a page; this one needs no browser.)"""
    js = (STATIC / "messages.js").read_text(encoding="utf-8")
    at = js.index("  fr: {")
    key = r'"([a-z][\w.]*)":\s*"'
    en, fr = set(re.findall(key, js[:at])), set(re.findall(key, js[at:]))
    assert en == fr and len(en) > 300
    used: set[str] = set()
    for path in STATIC.glob("*.js"):
        if path.name != "messages.js":
            used |= set(re.findall(r'\btn?\("([^"]+)"', path.read_text(encoding="utf-8")))
    tiles = set(re.findall(r'\btn?\("([^"]+)"', (STATIC / "tiles.js").read_text("utf-8")))
    assert tiles and {k for k in tiles if k.startswith("rk.")}
    assert sorted(k for k in used if k not in en and f"{k}.one" not in en) == []


def test_card_names_match_the_web_pages_french() -> None:
    """The terminal's French card names are the web page's (messages.js, fr)."""
    js = (STATIC / "messages.js").read_text(encoding="utf-8")
    fr = js[js.index("  fr: {") :]
    ranks = dict(re.findall(r'"rank\.(\d+)": "([^"]+)"', fr))
    suits = dict(re.findall(r'"suit\.(\d+)": "([^"]+)"', fr))
    for face in range(52):
        assert card_name(face, "fr") == f"{ranks[str(face % 13)]} de {suits[str(face // 13)]}"
    assert card_name(11 + 13 * 2, "en") == "queen of hearts"
    courts = dict(re.findall(r'"court\.(\d+)": "([^"]+)"', fr))
    assert [card_text(r, "fr")[0] for r in (10, 11, 12)] == [courts[str(r)] for r in (10, 11, 12)]
    assert [card_text(f, "fr") for f in (0, 9, 10, 11, 12, 52)] == [
        "A♣",
        "10♣",
        "V♣",
        "D♣",
        "R♣",
        "🃏",
    ]
    assert card_text(12, "en") == "K♣"


def test_language_from_the_environment() -> None:
    assert LANGS == ("en", "fr")
    assert lang_from_env({}) == "en"
    assert lang_from_env({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert lang_from_env({"LANG": "fr_FR.UTF-8", "LC_ALL": "en_US.UTF-8"}) == "en"
    assert lang_from_env({"LANG": "en_GB", "RUMMYKIT_LANG": "fr"}) == "fr"
    assert lang_from_env({"LANG": "de_DE.UTF-8"}) == "en"
    assert lang_from_env({"LC_ALL": "C", "LANG": "fr_FR"}) == "en"


def test_tr_and_counts() -> None:
    assert tr("en", "Wait: it is {who}'s turn.", who="Bob") == "Wait: it is Bob's turn."
    assert tr("fr", "Wait: it is {who}'s turn.", who="Bob") == "Attendez : c'est au tour de Bob."
    assert tr("fr", "not in the catalog") == "not in the catalog"
    assert trn("fr", "{n} card", "{n} cards", 1) == trn("fr", "{n} card", "{n} cards", 0).replace(
        "0", "1"
    )


def _ui_texts() -> dict[str, str]:
    """Every text the terminal game translates: the string literals given to ``_``,
    ``_n`` and ``N_`` in ``rummykit/tui`` (and the command line), with where they are."""
    out: dict[str, str] = {}
    for path in [*sorted((PKG / "tui").glob("*.py")), PKG / "cli.py"]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or getattr(node.func, "id", None) not in (
                "_",
                "_n",
                "N_",
            ):
                continue
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    out.setdefault(arg.value, f"{path.name}:{node.lineno}")
    return out


def test_every_terminal_text_has_french_and_nothing_else_is_in_the_catalog() -> None:
    """Both ways: each text the terminal game shows through the catalog has French, and
    each French entry is a text the game shows (a removed text leaves no stale one)."""
    texts = _ui_texts()
    assert len(texts) > 150
    missing = sorted(f"{where}: {t!r}" for t, where in texts.items() if t not in FR)
    assert missing == []
    unused = sorted(k for k in FR if k not in texts)
    assert unused == []


def test_french_agreement_and_elision() -> None:
    """One card is singular, none is *aucune*, and *le* before an ace is *l'*."""
    one = "take 6♥: it makes a run draw with 8♥ (1 cards can complete it)"
    assert hint_text(one, "fr").endswith("(1 carte peut la compléter)")
    none = "draw from the stock: 0 of the 30 unseen cards would meld with your hand"
    assert hint_text(none, "fr") == (
        "piochez : aucune des 30 cartes encore cachées n'irait dans une combinaison de votre main"
    )
    deep = "take 8C and the 1 card(s) above it: 21 points of your hand would then be in melds"
    assert hint_text(deep, "fr").startswith("prenez le 8C et la carte au-dessus : 21 points")
    ace = "draw from the stock: AD on the discard pile does not help your hand"
    assert hint_text(ace, "fr") == "piochez : l'AD de la défausse n'aide pas votre main"
    assert tr("fr", "discarded {card}", card="A♠") == "a défaussé l'A♠"
    assert tr("fr", "discarded {card}", card="10♠") == "a défaussé le 10♠"
    meld = "meld 9♦ 10♦ J♦ Q♦ 🃏=K♦: 59 points off your hand, 36 left in deadwood"
    assert hint_text(meld, "fr").startswith("posez 9♦ 10♦ V♦ D♦ 🃏=R♦ : 59 points de moins")


def test_rules_errors_a_person_can_meet_in_french() -> None:
    from rummykit.errors import RulesError
    from rummykit.i18n import rules_error_text

    for spec, players, fr in (
        ("gin", 3, "gin se joue à 2 joueurs exactement, pas 3"),
        ("rami51", 6, "rami51 se joue de 2 à 5 joueurs, pas 6"),
    ):
        with pytest.raises(RulesError) as info:
            PRESETS[spec].check_players(players)
        assert rules_error_text(str(info.value), "fr") == fr
    with pytest.raises(RulesError) as info:
        PRESETS["basic"].with_options(opening_minimum=100000)
    assert rules_error_text(str(info.value), "fr").startswith(
        "opening_minimum doit être un nombre entier de 0 à"
    )
    assert rules_error_text("option 'x' given twice", "fr") == "option 'x' given twice"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_rule_code_met_in_play_has_french(name: str) -> None:
    """The scan's safety net, at run time: illegal actions tried in positions of random
    games of every preset (and of the first-upcard house rule) name rules that all have
    French, however the engine came to build their codes."""
    rules = PRESETS[name]
    upcard = rules.knock_card is None and not rules.declare and not rules.free_table
    specs = [name, f"{name}(first_upcard_option=true)"] if upcard else [name]
    met: set[str] = set()
    rng = random.Random(3)
    for spec in specs:
        g = new_game(spec, rules.min_players, seed=1)
        size = g.game.actions.size
        for _ in range(40):
            if g.is_over():
                break
            legal = {g.game.actions.encode(m) for m in g.legal_moves()}
            if g.game.actions.listable:
                tried = rng.sample(range(size), min(size, 120))
            else:  # Rummikub's arrangements: too many to sample without replacement,
                # and most codes are no arrangement: the table and a set of the pack too
                tried = [rng.randrange(size) for _ in range(60)]
                melds, base = g.game.melds, g.game.actions.arrange_base
                for _ in range(60):
                    shapes = [tm.shape for tm in g.table]
                    shapes.insert(rng.randrange(len(shapes) + 1), rng.randrange(len(melds.shapes)))
                    if rng.random() < 0.3 and len(shapes) > 1:
                        shapes.pop(0)
                    tried.append(base + arrangement_code(shapes, melds))
                tried = [a for a in tried if not g.is_legal(g.game.actions.decode(a))]
            for action in [*range(min(size, 60)), *tried]:
                if action in legal:
                    continue
                with pytest.raises(IllegalMoveError) as info:
                    g.apply_action(action)
                met.add(info.value.rule)
                assert illegal_text(info.value, "fr") != info.value.reason or (
                    info.value.rule == "unknown_action"
                )
            g.apply(rng.choice(g.legal_moves()))
    missing = sorted(r for r in met if r not in engine_fr.RULES)
    assert missing == [] and len(met) >= 3, met
