"""What Discord refuses in a request's body, and the error bodies it answers with.

Messages (content, embeds, components, nonce, attachments), autocomplete choices and the
command tree of ``PUT …/commands`` are checked against Discord's documented limits. A form
refusal is Discord's 400 with code 50035 ("Invalid Form Body") and an ``errors`` tree that
names each bad field by its path (``components.0.components.1.custom_id``), which is what
discord.py turns into the text of its :class:`discord.HTTPException`.
"""

from __future__ import annotations

import re
from typing import Any, NoReturn

Answer = tuple[int, Any]
Path = tuple[str | int, ...]

MAX_CONTENT, MAX_EMBEDS, MAX_EMBED_TOTAL, MAX_FILES = 2000, 10, 6000, 10
EMBED_TEXT = {"title": 256, "description": 4096}
MAX_FIELDS, MAX_FIELD_NAME, MAX_FIELD_VALUE, MAX_FOOTER, MAX_AUTHOR = 25, 256, 1024, 2048, 256
MAX_ROWS, MAX_ROW_ITEMS, MAX_CUSTOM_ID, MAX_LABEL = 5, 5, 100, 80
MAX_OPTIONS, MAX_OPTION_TEXT, MAX_PLACEHOLDER = 25, 100, 150
MAX_NONCE = 25
MAX_CHOICES, MAX_CHOICE_TEXT = 25, 100
MAX_COMMANDS, MAX_COMMAND_OPTIONS, MAX_NAME, MAX_DESCRIPTION, MAX_COMMAND_SIZE = (
    100,
    25,
    32,
    100,
    4000,
)
BUTTON, SELECTS, LINK, PREMIUM = 2, (3, 5, 6, 7, 8), 5, 6
SUBCOMMAND, GROUP = 1, 2
NAME = re.compile(r"^[-_'\w]{1,32}$")


def error(status: int, code: int, message: str) -> Answer:
    """Discord's plain error body."""
    return status, {"code": code, "message": message}


class Refused(Exception):
    """Raised by a route's handler: Discord answers the request with :attr:`answer`."""

    def __init__(self, answer: Answer) -> None:
        super().__init__(answer)
        self.answer = answer


def refuse(answer: Answer) -> NoReturn:
    """Answer the request with the refusal ``answer``."""
    raise Refused(answer)


def refuse_if(answer: Answer | None) -> None:
    """Answer the request with ``answer`` when there is one (a check found a fault)."""
    if answer is not None:
        raise Refused(answer)


class Problems:
    """The bad fields of one request body, gathered into Discord's ``errors`` tree."""

    def __init__(self) -> None:
        self.tree: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def at_most(self, path: Path, value: Any, limit: int) -> None:
        if value is not None and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def between(self, path: Path, value: Any, low: int, high: int) -> None:
        if value is None or not low <= len(value) <= high:
            message = f"Must be between {low} and {high} in length."
            self.add(path, "BASE_TYPE_BAD_LENGTH", message)

    def answer(self) -> Answer | None:
        """None when nothing was wrong, else the 50035 refusal."""
        if not self.tree:
            return None
        return 400, {"code": 50035, "message": "Invalid Form Body", "errors": self.tree}


# --- messages ---------------------------------------------------------------------------------
def check_message(
    body: dict[str, Any], files: int, prefix: Path = (), *, creating: bool = True
) -> Answer | None:
    """A new message (or, with ``creating`` False, an edit's fields): within the limits, and
    a new one not empty (50006). ``files`` is the number of files uploaded with it."""
    problems = Problems()
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        problems.add((*prefix, "content"), "BASE_TYPE_STRING", "Must be a string.")
    else:
        problems.at_most((*prefix, "content"), content, MAX_CONTENT)
    _embeds(problems, prefix, body.get("embeds") or [])
    _components(problems, prefix, body.get("components") or [], body.get("flags") or 0)
    if files > MAX_FILES:
        problems.add((*prefix, "attachments"), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer.")
    nonce = body.get("nonce")
    if isinstance(nonce, str):
        problems.at_most((*prefix, "nonce"), nonce, MAX_NONCE)
    _mentions(problems, prefix, body.get("allowed_mentions"))
    refused = problems.answer()
    if refused is None and creating and is_empty(body, files):
        return error(400, 50006, "Cannot send an empty message")
    return refused


def is_empty(body: dict[str, Any], files: int) -> bool:
    """Nothing a reader would see: no text, embed, file, component, sticker or poll."""
    text = (body.get("content") or "").strip()
    shown = ("embeds", "components", "sticker_ids", "poll")
    return not text and not files and not any(body.get(key) for key in shown)


def _mentions(problems: Problems, prefix: Path, allowed: dict[str, Any] | None) -> None:
    if not allowed:
        return
    for kind in ("users", "roles"):
        if kind in allowed.get("parse", []) and allowed.get(kind):
            message = f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.'
            problems.add(
                (*prefix, "allowed_mentions"), "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", message
            )
        problems.at_most((*prefix, "allowed_mentions", kind), allowed.get(kind), 100)


def _embeds(problems: Problems, prefix: Path, embeds: list[dict[str, Any]]) -> None:
    where = (*prefix, "embeds")
    problems.at_most(where, embeds, MAX_EMBEDS)
    total = 0
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_TEXT.items():
            problems.at_most((*where, i, key), embed.get(key), limit)
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        problems.at_most((*where, i, "footer", "text"), footer, MAX_FOOTER)
        problems.at_most((*where, i, "author", "name"), author, MAX_AUTHOR)
        fields = embed.get("fields") or []
        problems.at_most((*where, i, "fields"), fields, MAX_FIELDS)
        for f, item in enumerate(fields):
            problems.between((*where, i, "fields", f, "name"), item.get("name"), 1, MAX_FIELD_NAME)
            problems.between(
                (*where, i, "fields", f, "value"), item.get("value"), 1, MAX_FIELD_VALUE
            )
        texts = [embed.get("title"), embed.get("description"), footer, author]
        texts += [t for item in fields for t in (item.get("name"), item.get("value"))]
        total += sum(len(t) for t in texts if isinstance(t, str))
    if total > MAX_EMBED_TOTAL:
        message = f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
        problems.add(where, "MAX_EMBED_SIZE_EXCEEDED", message)


def _components(problems: Problems, prefix: Path, rows: list[dict[str, Any]], flags: int) -> None:
    """Action rows of buttons and menus (the layout of messages without components v2)."""
    where = (*prefix, "components")
    if flags & (1 << 15):
        return  # components v2 have other rules; the bot does not use them
    problems.at_most(where, rows, MAX_ROWS)
    seen: set[str] = set()
    for r, row in enumerate(rows):
        if row.get("type") != 1:
            problems.add((*where, r, "type"), "UNION_TYPE_CHOICES", "Must be an action row (1).")
            continue
        items = row.get("components") or []
        problems.between((*where, r, "components"), items, 1, MAX_ROW_ITEMS)
        if len(items) > 1 and any(item.get("type") in SELECTS for item in items):
            message = "The specified component exceeds the maximum width"
            problems.add((*where, r, "components"), "COMPONENT_LAYOUT_WIDTH_EXCEEDED", message)
        for c, item in enumerate(items):
            _component(problems, (*where, r, "components", c), item, seen)


def _component(problems: Problems, where: Path, item: dict[str, Any], seen: set[str]) -> None:
    kind = item.get("type")
    if kind == BUTTON:
        _button(problems, where, item)
    elif kind in SELECTS:
        _select(problems, where, item)
    else:
        problems.add((*where, "type"), "UNION_TYPE_CHOICES", "Must be a button or a select.")
        return
    custom = item.get("custom_id")
    if custom is None:
        return
    problems.between((*where, "custom_id"), custom, 1, MAX_CUSTOM_ID)
    if custom in seen:
        message = "Component custom id cannot be duplicated"
        problems.add((*where, "custom_id"), "COMPONENT_CUSTOM_ID_DUPLICATED", message)
    seen.add(custom)


def _button(problems: Problems, where: Path, item: dict[str, Any]) -> None:
    style = item.get("style")
    if style not in range(1, 7):
        problems.add((*where, "style"), "BASE_TYPE_CHOICES", "Must be one of (1, 2, 3, 4, 5, 6).")
    if style == LINK and (not item.get("url") or "custom_id" in item):
        message = "A link button needs a url and no custom_id"
        problems.add(where, "BUTTON_COMPONENT_INVALID_URL", message)
    elif style not in (LINK, PREMIUM) and not item.get("custom_id"):
        problems.add((*where, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    if style != PREMIUM and not item.get("label") and not item.get("emoji"):
        problems.add(
            where, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A label or emoji is needed"
        )
    problems.at_most((*where, "label"), item.get("label"), MAX_LABEL)


def _select(problems: Problems, where: Path, item: dict[str, Any]) -> None:
    if not item.get("custom_id"):
        problems.add((*where, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
    problems.at_most((*where, "placeholder"), item.get("placeholder"), MAX_PLACEHOLDER)
    low, high = item.get("min_values", 1), item.get("max_values", 1)
    if not 0 <= low <= MAX_OPTIONS or not 1 <= high <= MAX_OPTIONS or low > high:
        message = "min_values must be 0–25, max_values 1–25 and not below min_values"
        problems.add((*where, "max_values"), "SELECT_COMPONENT_VALUES_INVALID", message)
    if item.get("type") != 3:
        return
    options = item.get("options") or []
    problems.between((*where, "options"), options, 1, MAX_OPTIONS)
    if high > len(options):
        message = "max_values must not exceed the number of options"
        problems.add((*where, "max_values"), "SELECT_COMPONENT_VALUES_INVALID", message)
    values: set[Any] = set()
    for o, option in enumerate(options):
        problems.between((*where, "options", o, "label"), option.get("label"), 1, MAX_OPTION_TEXT)
        problems.between((*where, "options", o, "value"), option.get("value"), 1, MAX_OPTION_TEXT)
        problems.at_most((*where, "options", o, "description"), option.get("description"), 100)
        if option.get("value") in values:
            message = "Select component option value cannot be duplicated"
            problems.add((*where, "options", o, "value"), "SELECT_OPTION_VALUE_DUPLICATED", message)
        values.add(option.get("value"))


# --- autocomplete -----------------------------------------------------------------------------
def check_choices(choices: list[dict[str, Any]]) -> Answer | None:
    """An autocomplete answer: at most 25 choices, names 1–100 characters, text values ≤ 100."""
    problems = Problems()
    where: Path = ("data", "choices")
    problems.at_most(where, choices, MAX_CHOICES)
    for i, choice in enumerate(choices):
        _choice(problems, (*where, i), choice)
    return problems.answer()


def _choice(problems: Problems, where: Path, choice: dict[str, Any]) -> None:
    problems.between((*where, "name"), choice.get("name"), 1, MAX_CHOICE_TEXT)
    value = choice.get("value")
    if isinstance(value, str):
        problems.at_most((*where, "value"), value, MAX_CHOICE_TEXT)
    elif not isinstance(value, int | float) or isinstance(value, bool):
        problems.add((*where, "value"), "BASE_TYPE_REQUIRED", "Must be a string or a number.")


# --- the command tree -------------------------------------------------------------------------
def check_commands(commands: Any) -> Answer | None:
    """A whole ``PUT …/commands`` body; one bad command refuses the whole sync."""
    problems = Problems()
    if not isinstance(commands, list):
        problems.add((), "LIST_TYPE_CONVERT", "Must be a list of commands.")
        return problems.answer()
    problems.at_most((), commands, MAX_COMMANDS)
    seen: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        _name(problems, (i,), command.get("name"), lowercase=kind == 1)
        if (kind, command.get("name")) in seen:
            message = "Application command names must be unique"
            problems.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", message)
        seen.add((kind, command.get("name")))
        if kind == 1:
            problems.between((i, "description"), command.get("description"), 1, MAX_DESCRIPTION)
            _options(problems, (i,), command.get("options") or [], parent=None)
        if command_size(command) > MAX_COMMAND_SIZE:
            message = f"Command exceeds maximum size ({MAX_COMMAND_SIZE})"
            problems.add((i,), "APPLICATION_COMMAND_TOO_LARGE", message)
    return problems.answer()


def command_size(command: dict[str, Any]) -> int:
    """The characters Discord counts in a command: names, descriptions, choice names and
    values of it and all its options (the longest localisation of each)."""

    def longest(item: dict[str, Any], key: str) -> int:
        texts = [item.get(key) or "", *(item.get(f"{key}_localizations") or {}).values()]
        return max(len(str(t or "")) for t in texts)

    size = longest(command, "name") + longest(command, "description")
    for choice in command.get("choices") or []:
        size += longest(choice, "name") + len(str(choice.get("value", "")))
    return size + sum(command_size(o) for o in command.get("options") or [])


def _name(problems: Problems, where: Path, name: Any, *, lowercase: bool) -> None:
    if not isinstance(name, str) or not NAME.match(name) or (lowercase and name != name.lower()):
        message = "Command name is invalid"
        problems.add((*where, "name"), "APPLICATION_COMMAND_INVALID_NAME", message)


def _options(
    problems: Problems, where: Path, options: list[dict[str, Any]], parent: int | None
) -> None:
    """One level of options: ≤ 25, unique names, a group holds subcommands only, a
    subcommand none, a command not both kinds; required values first."""
    path = (*where, "options")
    problems.at_most(path, options, MAX_COMMAND_OPTIONS)
    nested = [o.get("type") in (SUBCOMMAND, GROUP) for o in options]
    allowed = {
        None: not any(nested) or all(nested),
        GROUP: all(o.get("type") == SUBCOMMAND for o in options),
        SUBCOMMAND: not any(nested),
    }
    if not allowed[parent]:
        message = "Sub-commands and groups cannot be mixed or nested so"
        problems.add(path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", message)
    required = [bool(o.get("required")) for o in options if o.get("type") not in (1, 2)]
    if required != sorted(required, reverse=True):
        message = "Required options must be placed before non-required options"
        problems.add(path, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", message)
    names: set[Any] = set()
    for o, option in enumerate(options):
        _option(problems, (*path, o), option)
        if option.get("name") in names:
            message = "Option names must be unique"
            problems.add((*path, o, "name"), "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", message)
        names.add(option.get("name"))


def _option(problems: Problems, where: Path, option: dict[str, Any]) -> None:
    _name(problems, where, option.get("name"), lowercase=True)
    problems.between((*where, "description"), option.get("description"), 1, MAX_DESCRIPTION)
    kind = option.get("type")
    if kind in (SUBCOMMAND, GROUP):
        _options(problems, where, option.get("options") or [], parent=kind)
        return
    choices = option.get("choices") or []
    problems.at_most((*where, "choices"), choices, MAX_CHOICES)
    if choices and option.get("autocomplete"):
        message = "Autocomplete cannot be set with choices"
        problems.add((*where, "autocomplete"), "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID", message)
    for c, choice in enumerate(choices):
        _choice(problems, (*where, "choices", c), choice)
