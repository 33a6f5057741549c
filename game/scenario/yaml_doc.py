"""YAML documents with node marks, for problems as ``FILE:LINE: PATH: message`` (spec "Scenario file").

``_Doc`` finds the 1-based line of any path in a parsed document; ``_read_yaml`` reads a file with
``game.reader.read_yaml`` and reports duplicate keys (PyYAML would silently keep the last one); ``_show`` renders a
value for messages. Used by every scenario module and by lessons (``game.tutorial.lesson``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from game.engine.actions import show_value
from game.reader import FileRefused, YamlFile, display_name, read_yaml

_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Problem(NamedTuple):
    file: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.path}: {self.message}"


Loc = tuple[str | int, ...]

_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*\Z")  # \Z: a key ending in a newline is no plain name


def _path(loc: Loc) -> str:
    """``('armies', 0, 'units', 2, 'models')`` -> ``armies[0].units[2].models``; root -> ``(root)``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _PLAIN_KEY.match(part):
            out += f".{part}" if out else part
        else:
            out += f"[{part!r}]" if out else repr(part)
    return out or "(root)"


@dataclass
class _Doc:
    """One YAML document: the name used in problems and its node tree (for line numbers)."""

    file: str
    root: yaml.Node | None

    def _find(self, loc: Loc) -> tuple[yaml.Node | None, yaml.Node | None]:
        """The deepest node along ``loc`` and, if the last step was a mapping key, that key's node."""
        node, key_node = self.root, None
        for part in loc:
            if isinstance(node, yaml.MappingNode):
                for k, v in node.value:
                    if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                        node, key_node = v, k
                        break
                else:
                    return node, None
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
                node, key_node = node.value[part], None
            else:
                return node, None
        return node, key_node

    def line(self, loc: Loc, key: bool = False) -> int:
        """1-based line of the value at ``loc`` (of its key if ``key``); the nearest enclosing node if absent."""
        node, key_node = self._find(loc)
        target = key_node if key and key_node is not None else node
        if target is None:
            return 1
        return int(target.start_mark.line) + 1

    def problem(self, loc: Loc, message: str, key: bool = False) -> _Problem:
        """A problem about the value at ``loc``."""
        return _Problem(self.file, self.line(loc, key), _path(loc), message)


_display = display_name


def _show(value: Any) -> str:
    """A short rendering of a YAML value for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = repr(value[:61])
    elif isinstance(value, float):
        if math.isnan(value):
            text = ".nan"
        elif math.isinf(value):
            text = ".inf" if value > 0 else "-.inf"
        else:
            text = str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)
    else:
        text = show_value(value) if isinstance(value, (list, dict, tuple, set)) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _check_duplicates(doc: _Doc, node: yaml.Node | None, loc: Loc, out: list[_Problem], seen: set[int]) -> None:
    """Report duplicate mapping keys (PyYAML would silently keep the last one)."""
    if node is None or id(node) in seen:
        return
    seen.add(id(node))
    if isinstance(node, yaml.MappingNode):
        first: dict[str, int] = {}
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.tag != _MERGE_TAG:
                line = int(k.start_mark.line) + 1
                if k.value in first:
                    out.append(_Problem(doc.file, line, _path(loc + (k.value,)),
                                        f"duplicate key {k.value!r} (first at line {first[k.value]})"))
                else:
                    first[k.value] = line
                _check_duplicates(doc, v, loc + (k.value,), out, seen)
            else:
                _check_duplicates(doc, v, loc, out, seen)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _check_duplicates(doc, v, loc + (i,), out, seen)


def _read_yaml(path: Path, out: list[_Problem], read: YamlFile | None = None) -> tuple[_Doc, Any] | None:
    """Read and parse one YAML file with node marks (``game.reader``); None (and a problem) if it cannot be read
    or parsed. ``read``: the file already read (``check`` reads each file once)."""
    if read is None:
        try:
            read = read_yaml(path)
        except FileRefused as e:
            out.append(_Problem(e.file, e.line, e.path, e.message))
            return None
    doc = _Doc(read.name, read.root)
    _check_duplicates(doc, read.root, (), out, set())
    return doc, read.data
