"""A DM's upload leaves as one body (`bot.discord.delivery.posting.one_body`) holding the very
parts discord.py's own form would: the same names, file names, content types and bytes,
in the same order."""

from __future__ import annotations

import io
import json
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import handle_message_parameters

from bot.discord.delivery.posting import memory_file, one_body, with_components

PNG = bytes(range(256)) * 9


async def _parts(payload: aiohttp.Payload) -> list[tuple[str | None, str | None, str, bytes]]:
    """(name, file name, content type, bytes) of each part, read back by the standard
    library's MIME parser."""
    head = f"Content-Type: {payload.content_type}\r\n\r\n".encode()
    message = BytesParser(policy=HTTP).parsebytes(head + await payload.as_bytes())
    assert message.is_multipart()
    return [(_name(part), part.get_filename(),
             part.get("Content-Type", ""), _body(part))
            for part in message.iter_parts()]


def _name(part: Message[Any, Any]) -> str | None:
    name = part.get_param("name", header="content-disposition")
    assert name is None or isinstance(name, str), name
    return name


def _body(part: Message[Any, Any]) -> bytes:
    body = part.get_payload(decode=True)
    assert isinstance(body, bytes), "a part's body, decoded"
    return body


def _fields() -> list[dict[str, Any]]:
    with handle_message_parameters(content="your move", file=memory_file(PNG, "hand-1-2.png"),
                                   view=discord.ui.View(timeout=None)) as params:
        return [dict(f) for f in params.multipart or []]


async def test_one_body_holds_the_parts_discord_py_sends() -> None:
    fields = _fields()
    own = aiohttp.FormData(quote_fields=False)
    for field in fields:
        own.add_field(**field)
    ours = await one_body(_fields())
    expected = await _parts(aiohttp.BytesPayload(await own().as_bytes(),
                                                 content_type=own().content_type))
    got = await _parts(ours)
    assert got == expected
    assert [(name, filename) for name, filename, _t, _b in got] == [
        ("payload_json", None), ("files[0]", "hand-1-2.png")]
    assert got[1][3] == PNG and got[1][2] == "application/octet-stream"
    assert ours.content_type.startswith("multipart/form-data; boundary=")


async def _aiohttps(fields: list[dict[str, Any]], boundary: str) -> bytes:
    """The body aiohttp's form (as discord.py sends it) writes for ``fields``."""
    form = aiohttp.FormData(quote_fields=False)
    form._writer = aiohttp.MultipartWriter("form-data", boundary=boundary)
    for field in fields:
        form.add_field(**field)
    return await form().as_bytes()


@pytest.mark.parametrize("filename", ["hand-1-2.png", "李 \"quoted\" \\ name.png"])
async def test_one_body_is_byte_for_byte_aiohttps_form(filename: str) -> None:
    """Joined without aiohttp's form, the body is still exactly the one it writes
    (given its boundary), whatever the file's name."""
    def fields() -> list[dict[str, Any]]:
        with handle_message_parameters(content="李 your move", file=memory_file(PNG, filename),
                                       view=discord.ui.View(timeout=None)) as params:
            return [dict(f) for f in params.multipart or []]
    ours = await one_body(fields())
    boundary = ours.content_type.split("boundary=")[1]
    assert await ours.as_bytes() == await _aiohttps(fields(), boundary)
    assert len(boundary) == 32 and boundary != (await one_body(fields())).content_type[-32:]


async def test_a_sent_buffer_is_left_without_its_stub() -> None:
    picture = memory_file(PNG, "hand-1-2.png")
    assert isinstance(picture.fp, io.BytesIO)
    picture.close()
    assert "close" not in vars(picture.fp) and picture.fp.getvalue() == PNG


def test_components_composed_as_json_join_the_requests_json() -> None:
    """A DM's components composed as JSON text in the picture process (`with_components`)
    make the same request JSON as discord.py makes of a view holding them."""
    components = [{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "碰 5万", "custom_id": "mj:mv:1:2:3"}]}]

    class Composed(discord.ui.View):
        def to_components(self) -> list[dict[str, Any]]:
            return components

    with handle_message_parameters(content="your move", file=memory_file(PNG, "h.png"),
                                   view=Composed(timeout=None), nonce="n1") as params:
        expected = json.loads((params.multipart or [])[0]["value"])
    with handle_message_parameters(content="your move", file=memory_file(PNG, "h.png"),
                                   nonce="n1") as params:
        plain = (params.multipart or [])[0]["value"]
    joined = with_components(plain, json.dumps(components, separators=(",", ":")))
    assert json.loads(joined) == expected
    assert json.loads(with_components("{}", "[]")) == {"components": []}
    with pytest.raises(ValueError, match="JSON"):
        with_components("[]", "[]")
