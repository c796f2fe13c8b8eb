"""Reading component trees (action rows, v2 containers/sections) as flat lists."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .models import JsonDict

BUTTON, STRING_SELECT, TEXT_INPUT, TEXT_DISPLAY, ACTION_ROW, LABEL = 2, 3, 4, 10, 1, 18
RADIO_GROUP, CHECKBOX = 21, 23
INTERACTIVE = {BUTTON, STRING_SELECT, 5, 6, 7, 8}


@dataclass(frozen=True)
class ComponentInfo:
    """One interactive component: a button or a select menu."""

    type: int
    custom_id: str | None
    label: str | None = None
    style: int | None = None
    disabled: bool = False
    url: str | None = None
    emoji: str | None = None
    placeholder: str | None = None
    options: tuple[str, ...] = ()
    option_labels: tuple[str, ...] = ()
    raw: JsonDict = field(default_factory=dict, compare=False, hash=False, repr=False)

    @property
    def is_button(self) -> bool:
        """Whether this is a button."""
        return self.type == BUTTON

    @property
    def is_select(self) -> bool:
        """Whether this is any kind of select menu."""
        return self.type in INTERACTIVE - {BUTTON}


def walk(components: list[JsonDict]) -> Iterator[JsonDict]:
    """Every component in the tree, depth first (rows, containers, accessories)."""
    for component in components:
        yield component
        yield from walk(component.get("components") or [])
        for key in ("accessory", "component"):  # section accessory, label child
            child = component.get(key)
            if child:
                yield from walk([child])


def _emoji(component: JsonDict) -> str | None:
    emoji = component.get("emoji")
    if not emoji:
        return None
    return emoji.get("name") or str(emoji.get("id"))


def info(component: JsonDict) -> ComponentInfo:
    """A flat description of one component."""
    options = component.get("options") or []
    return ComponentInfo(
        type=component["type"],
        custom_id=component.get("custom_id"),
        label=component.get("label"),
        style=component.get("style"),
        disabled=bool(component.get("disabled", False)),
        url=component.get("url"),
        emoji=_emoji(component),
        placeholder=component.get("placeholder"),
        options=tuple(o["value"] for o in options),
        option_labels=tuple(o.get("label", "") for o in options),
        raw=component,
    )


def flatten(components: list[JsonDict]) -> list[ComponentInfo]:
    """Every button and select in the tree, in display order."""
    return [info(c) for c in walk(components) if c.get("type") in INTERACTIVE]


def texts(components: list[JsonDict]) -> list[str]:
    """The text of every v2 Text Display component."""
    return [c.get("content", "") for c in walk(components) if c.get("type") == TEXT_DISPLAY]


def find(components: list[JsonDict], custom_id: str) -> JsonDict | None:
    """The component with that custom_id, if present."""
    return next((c for c in walk(components) if c.get("custom_id") == custom_id), None)


def modal_answers(components: list[JsonDict], values: dict[str, Any]) -> list[JsonDict]:
    """The ``components`` of a modal submit: the modal's inputs filled with ``values``."""
    known = {c["custom_id"] for c in walk(components) if c.get("custom_id")}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"the modal has no inputs {sorted(unknown)}; it has {sorted(known)}")
    return _answers(components, values)


def _answers(components: list[JsonDict], values: dict[str, Any]) -> list[JsonDict]:
    result: list[JsonDict] = []
    for component in components:
        kind, custom_id = component["type"], component.get("custom_id")
        if kind == ACTION_ROW:
            result.append({"type": kind, "components": _answers(component["components"], values)})
        elif kind == LABEL:
            [child] = _answers([component["component"]], values)
            result.append({"type": kind, "component": child})
        elif kind == TEXT_INPUT:
            custom_id = component["custom_id"]  # an input's id is required, as on Discord
            if component.get("required", True) and not values.get(custom_id):
                raise ValueError(f"the modal's text input {custom_id!r} is required")
            value = values.get(custom_id, "")
            result.append({"type": kind, "custom_id": custom_id, "value": value})
        elif kind in (RADIO_GROUP, CHECKBOX):
            custom_id = component["custom_id"]
            value = values.get(custom_id, False if kind == CHECKBOX else None)
            result.append({"type": kind, "custom_id": custom_id, "value": value})
        elif custom_id is not None:  # selects, checkbox groups, file uploads
            chosen = list(values.get(custom_id, []))
            result.append({"type": kind, "custom_id": custom_id, "values": chosen})
    return result
