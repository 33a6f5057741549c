"""The one way files come in: read, decode and parse every YAML file a player can be handed, within bounds.

Scenarios, army files, army lists, lessons, game records, saves and lesson progress are all read here
(docs/formats.md "Limits"). A file is untrusted: ``read_yaml``

1. refuses a name with a NUL character, a missing file, a folder, a device or pipe (``/dev/zero``), and a file
   over its size limit, before reading a byte more than the limit;
2. decodes it as UTF-8 (a UTF-8 BOM is skipped; UTF-16 and UTF-32 with a BOM are read too), naming the line of
   the first byte that is not UTF-8;
3. scans the YAML event stream once (libyaml) counting nodes with every alias expanded, the nesting depth and
   the digits of numbers, and refuses a file past ``MAX_YAML_NODES`` (a "billion laughs"), ``MAX_YAML_DEPTH``
   or ``MAX_NUMBER_DIGITS`` before anything is built, validated or formatted into a message;
4. composes the node tree (line marks for messages) and constructs the data once, with libyaml.

Anchors and aliases stay allowed (``yaml.safe_dump`` writes them for repeated objects); an alias that refers
to the node containing it is refused. Every refusal is a ``FileRefused`` whose problems read
``FILE:LINE: (file): message`` or ``FILE:LINE: (yaml): message``.
"""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from game.files import FileProblems
from game.limits import MAX_FILE_BYTES, MAX_NUMBER_DIGITS, MAX_YAML_DEPTH, MAX_YAML_NODES

_SafeBase: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)   # libyaml: fast, and refuses deep nesting cleanly
_INT_TAG = "tag:yaml.org,2002:int"


class Loader(_SafeBase):  # type: ignore[misc]
    """SafeLoader with YAML 1.2 style plain scalars: only true/false are booleans and there are no timestamps.

    YAML 1.1 would turn ``no``, ``yes``, ``on``, ``off`` into booleans (a unit id ``no`` would become False);
    here they stay strings, and boolean keys (``options``) accept them as booleans explicitly.
    """


Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
Loader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)

_LONG_NUMBER = re.compile(rf"[-+]?[0-9][0-9_]{{{MAX_NUMBER_DIGITS},}}")


class FileRefused(FileProblems):
    """A file that cannot be read or parsed at all: one problem, ``FILE:LINE: PATH: message`` in ``problems``,
    and its parts as attributes."""

    def __init__(self, file: str, line: int, path: str, message: str) -> None:
        super().__init__([f"{file}:{line}: {path}: {message}"])
        self.file, self.line, self.path, self.message = file, line, path, message


@dataclass(frozen=True)
class YamlFile:
    """One YAML file read and parsed."""

    name: str
    """How the file is named in problems: as given, normalised (``a/../b.yaml`` -> ``b.yaml``)."""
    path: Path
    """The file."""
    text: str
    """Its text, decoded."""
    root: yaml.Node | None
    """The node tree, with line marks (None for an empty file)."""
    data: Any
    """The constructed value (aliases share their objects)."""


def display_name(path: str | Path) -> str:
    """How a file is named in problems: as given, normalised; a NUL character shown as ``\\0`` and other
    characters that cannot be printed (a line break in a name) escaped, so that a problem stays on one line."""
    name = os.path.normpath(str(path)).replace("\x00", "\\0")
    return name if name.isprintable() else "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


def _refuse(name: str, line: int, where: str, message: str) -> FileRefused:
    return FileRefused(name, line, where, message)


def read_bytes(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``max_bytes``.

    Raises ``FileRefused`` for a name with a NUL character, a missing or unreadable file, a folder, anything
    that is not a regular file (device, pipe, socket) and a file over the limit; never reads more than
    ``max_bytes + 1`` bytes (the file may grow between the check and the read).
    """
    name = display_name(path)
    if "\x00" in str(path):
        raise _refuse(name, 1, "(file)", "the file name contains a NUL character")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise _refuse(name, 1, "(file)", "no such file") from None
    except (OSError, ValueError) as e:
        raise _refuse(name, 1, "(file)", f"cannot read: {getattr(e, 'strerror', None) or e}") from None
    if stat.S_ISDIR(st.st_mode):
        raise _refuse(name, 1, "(file)", "is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise _refuse(name, 1, "(file)", "not a regular file (a device, pipe or socket cannot be read)")
    too_big = (f"the file is larger than {max_bytes:,} bytes, more than any real one "
               "(docs/formats.md \"Limits\")")
    if st.st_size > max_bytes:
        raise _refuse(name, 1, "(file)", too_big)
    try:
        with open(path, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
                raise _refuse(name, 1, "(file)", "not a regular file")
            data = fh.read(max_bytes + 1)
    except OSError as e:
        raise _refuse(name, 1, "(file)", f"cannot read: {e.strerror or e}") from None
    if len(data) > max_bytes:
        raise _refuse(name, 1, "(file)", too_big)
    return data


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode(data: bytes, name: str) -> str:
    """``data`` as text: UTF-8, or UTF-8/16/32 announced by a byte order mark.

    Raises ``FileRefused`` naming the line of the first byte that cannot be decoded.
    """
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), "utf-8")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1 if encoding == "utf-8" else 1
        what = "UTF-8" if encoding == "utf-8" else encoding.upper().replace("-SIG", "")
        raise _refuse(name, line, "(file)", f"not {what} text (byte 0x{data[e.start]:02x}); save the file as "
                                            "UTF-8") from None


def read_text(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The decoded text of a file (``read_bytes`` then ``decode``). Raises ``FileRefused``."""
    return decode(read_bytes(path, max_bytes), display_name(path))


def scan(text: str, name: str, max_nodes: int = MAX_YAML_NODES, max_depth: int = MAX_YAML_DEPTH) -> int:
    """Walk the YAML event stream once, without building anything, and return the number of nodes with every
    alias expanded.

    Raises ``FileRefused`` (with the line where it happens) past ``max_nodes`` expanded nodes or ``max_depth``
    levels of nesting, for an alias to the node that contains it, for a number of more than
    ``MAX_NUMBER_DIGITS`` digits, and for text that is not YAML.
    """
    sizes: dict[str, int] = {}          # anchor -> expanded size of its node
    open_: list[list[Any]] = []         # per open collection: [expanded size so far, anchor]
    total = 0
    try:
        for event in yaml.parse(text, Loader=_SafeBase):
            line = event.start_mark.line + 1 if event.start_mark is not None else 1
            size = 0
            if isinstance(event, yaml.CollectionStartEvent):
                if len(open_) >= max_depth:
                    raise _refuse(name, line, "(yaml)", f"nested more than {max_depth} levels deep")
                open_.append([1, event.anchor])
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                size, anchor = open_.pop()
                if anchor is not None:
                    sizes[anchor] = size
            elif isinstance(event, yaml.ScalarEvent):
                size = 1
                value = event.value
                if len(value) > MAX_NUMBER_DIGITS and (
                        event.tag == _INT_TAG or (event.implicit[0] and _LONG_NUMBER.fullmatch(value))):
                    raise _refuse(name, line, "(yaml)", f"a number of {len(value)} digits; at most "
                                                        f"{MAX_NUMBER_DIGITS} are read")
                if event.anchor is not None:
                    sizes[event.anchor] = 1
            elif isinstance(event, yaml.AliasEvent):
                if event.anchor in sizes:
                    size = sizes[event.anchor]
                elif any(anchor == event.anchor for _, anchor in open_):
                    raise _refuse(name, line, "(yaml)", f"the alias *{event.anchor} refers to a node that "
                                                        "contains it")
                else:
                    size = 1            # undefined alias: composing reports it with its line
            else:
                continue
            if open_:
                open_[-1][0] += size
                size = open_[-1][0]
            else:
                total += size
                size = total
            if size > max_nodes:
                raise _refuse(name, line, "(yaml)", f"more than {max_nodes:,} values once its aliases are "
                                                    "expanded (docs/formats.md \"Limits\")")
    except yaml.YAMLError as e:
        raise _yaml_problem(e, text, name) from None
    return total


def _yaml_problem(e: yaml.YAMLError, text: str, name: str) -> FileRefused:
    """A parser error as a problem with its line."""
    if isinstance(e, yaml.MarkedYAMLError):
        mark = e.problem_mark or e.context_mark
        line = int(mark.line) + 1 if mark is not None else 1
        what = ": ".join(str(p) for p in (e.context, e.problem) if p)
    elif isinstance(e, yaml.reader.ReaderError):
        line = text.count("\n", 0, max(0, e.position)) + 1
        char = e.character if isinstance(e.character, int) else ord(e.character[:1] or "\0")
        what = f"the character U+{char:04X} is not allowed in YAML"
    else:
        line, what = 1, str(e)
    return _refuse(name, line, "(yaml)", f"not valid YAML: {what}")


def parse_yaml(text: str, name: str, max_nodes: int = MAX_YAML_NODES) -> tuple[yaml.Node | None, Any]:
    """The node tree (with line marks) and the constructed value of one YAML document, after ``scan``.

    Raises ``FileRefused`` for anything ``scan`` refuses and for text that is not one valid YAML document.
    """
    scan(text, name, max_nodes)
    loader = Loader(text)
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    except yaml.YAMLError as e:
        raise _yaml_problem(e, text, name) from None
    except (ValueError, OverflowError, RecursionError) as e:   # scan should have refused these already
        raise _refuse(name, 1, "(yaml)", f"cannot be read: {type(e).__name__}") from None
    finally:
        loader.dispose()
    return root, data


def read_yaml(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> YamlFile:
    """Read, decode, scan and parse one YAML file (module docstring). Raises ``FileRefused``."""
    name = display_name(path)
    text = read_text(path, max_bytes)
    root, data = parse_yaml(text, name)
    return YamlFile(name, Path(path), text, root, data)


def node_line(node: yaml.Node | None) -> int:
    """The 1-based line a YAML node starts on; 1 without a node (a problem of the whole file)."""
    return int(node.start_mark.line) + 1 if node is not None else 1


def mapping_nodes(node: yaml.Node | None) -> dict[str, yaml.Node]:
    """The value nodes of a YAML mapping node by key (``str`` of the key), to give a key's problems its line; {} for
    any other node."""
    out: dict[str, yaml.Node] = {}
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            out[str(k.value)] = v
    return out


def peek_yaml(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The value of a YAML file, or None when it cannot be read or parsed; never raises (for menus that show a
    file's title without validating it)."""
    try:
        return read_yaml(path, max_bytes).data
    except FileRefused:
        return None


def peek_mapping(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> dict[Any, Any]:
    """``peek_yaml`` when it is a mapping, else ``{}``; never raises."""
    data = peek_yaml(path, max_bytes)
    return data if isinstance(data, dict) else {}


__all__ = ["FileRefused", "Loader", "YamlFile", "decode", "display_name", "mapping_nodes", "node_line", "parse_yaml",
           "peek_mapping", "peek_yaml", "read_bytes", "read_text", "read_yaml", "scan"]
