"""The .xg container and its zlib archive, as eXtreme Gammon's "XG format" page describes them.

* *container*: a 8232-byte header starting with ``RGMH``, then an optional JPEG thumbnail,
  then the archive.
* *zlib archive*: the files' data, a compressed *registry* naming each file (its size, its
  stored size, where it starts, its CRC-32), and a 36-byte *trailer* (CRC-32 of what
  precedes it, the number of files, the registry's size and where it starts).
"""

from __future__ import annotations

import struct
import zlib

from backgammon.errors import BackgammonError, gettext_noop

MAGIC = b"RGMH"
"""The first four bytes of every .xg file."""
HEADER_SIZE = 8232
GAME_FILE = "temp.xg"

_TRAILER = struct.Struct("<IiiiiB")
_TRAILER_SIZE = 36
_REGISTRY_ENTRY = 532
"""A registry entry: the name and the path as Pascal strings of 255 characters, then the
original size, the stored size, the start, the CRC-32, and whether it is stored as is."""


class XgFileError(BackgammonError):
    """An .xg file that cannot be turned into a match: the message says what is wrong."""


def _archive(content: bytes) -> bytes:
    if content[:4] != MAGIC:
        raise XgFileError(gettext_noop("This is not an eXtreme Gammon .xg file."))
    if len(content) < HEADER_SIZE:
        raise XgFileError(gettext_noop("The .xg file is cut short: its header is incomplete."))
    header_size, _, thumbnail_size = struct.unpack_from("<IqI", content, 8)
    start = header_size + thumbnail_size
    if header_size != HEADER_SIZE or start > len(content):
        raise XgFileError(gettext_noop("The .xg file is damaged: its header is not valid."))
    return content[start:]


def _archive_file(archive: bytes, name: str) -> bytes:
    """The file ``name`` out of the zlib archive, its size and CRC-32 checked."""
    if len(archive) < _TRAILER_SIZE:
        raise _damaged()
    trailer = archive[-_TRAILER_SIZE:]
    crc, count, _, registry_size, registry_start, compressed = _TRAILER.unpack_from(trailer)
    body = archive[:-_TRAILER_SIZE]
    if zlib.crc32(body) != crc or not 0 <= registry_start <= len(body) - registry_size:
        raise _damaged()
    registry = body[registry_start : registry_start + registry_size]
    if compressed:
        registry = _inflated(registry)
    if count < 1 or len(registry) != count * _REGISTRY_ENTRY:
        raise _damaged()
    for index in range(count):
        entry = registry[index * _REGISTRY_ENTRY : (index + 1) * _REGISTRY_ENTRY]
        if entry[1 : 1 + entry[0]].decode("latin-1") != name:
            continue
        size, stored_size, start, file_crc = struct.unpack_from("<iiiI", entry, 512)
        stored_as_is = entry[528] == 1
        stored = body[start : start + stored_size]
        data = stored if stored_as_is else _inflated(stored)
        if start < 0 or len(stored) != stored_size or len(data) != size:
            raise _damaged()
        if zlib.crc32(data) != file_crc:
            raise _damaged()
        return data
    raise XgFileError(gettext_noop("The .xg file holds no match: its archive has no games."))


def _inflated(data: bytes) -> bytes:
    try:
        return zlib.decompress(data)
    except zlib.error:
        raise _damaged() from None


def _damaged() -> XgFileError:
    return XgFileError(
        gettext_noop("The .xg file is damaged: its compressed archive cannot be read.")
    )


def game_file(content: bytes) -> bytes:
    """The game file (``temp.xg``) of the .xg file ``content``, its size and CRC-32 checked."""
    return _archive_file(_archive(content), GAME_FILE)
