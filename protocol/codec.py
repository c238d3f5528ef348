"""One codec for every message between a kernel and its supervisor: JSON, plus raw frames
for binary data, knowing no message by name.

A message is a registered dataclass (``wire_type``). It travels as one JSON object, its
fields and its ``type``. A registered dataclass inside it (a loop's report) travels as an
object with ``__type__``; a binary value anywhere in it (an ``array.array``, a numpy
array, ``bytes``, a ``memoryview``) travels as a raw frame beside the JSON, and the JSON
holds its place (``__frame__``) and what rebuilds it (a typecode, or a dtype and a
shape). The codec finds them by their type, from inside the C encoder (its ``default``),
so the plain parts of a message cost no Python call. (The marks' keys start with ``__``,
as no name a run reports does.) JSON, not pickle: reading what a
kernel sends never runs code.

A message with frames or typed parts is one buffer (``packed``): a zero byte, the count
of its parts and each one's length (little-endian), then its JSON and its frames; one
write per message. JSON never starts with a zero byte. Lengths that do not add up, or a
frame that is not where the JSON says, raise ``CorruptPipe``: the pipe is not to be
trusted after it.
"""

from __future__ import annotations

import struct
import threading
from array import array
from dataclasses import fields
from json import JSONDecoder
from json.encoder import c_make_encoder, encode_basestring_ascii
from json.scanner import c_make_scanner
from typing import Any

from protocol.sealed import BUILTINS
from protocol.wire import CorruptPipe

__builtins__ = BUILTINS  # noqa: A001 - a recipe's patched builtins are not the codec's

#: The registered dataclasses by name: what the JSON's ``type`` and ``__type__`` may name.
TYPES: dict[str, type] = {}
_NAMES: dict[type, str] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_PACKED = b"\x00"
_COUNT = struct.Struct("<I")


#: json.loads's scanner, made as the module is imported (``protocol.sealed``: as the
#: kernel starts), so a recipe's patched json is not the pipe's.
_plain_scan = c_make_scanner(JSONDecoder())


def loads(text: str, scan: Any = _plain_scan) -> Any:
    """``json.loads(text)`` of a compact JSON text (as the codec writes); ``ValueError``
    when it is not one. ``scan``: a scanner of one's own (``c_make_scanner``), for an
    ``object_hook``."""
    try:
        value, end = scan(text, 0)
    except StopIteration as e:
        raise ValueError(f"not JSON at {e.value}") from None
    if end != len(text):
        raise ValueError(f"extra data at {end}")
    return value


def wire_type(cls: type) -> type:
    """Register dataclass ``cls`` (a decorator): it may travel, as a message or inside
    one, and comes back as itself."""
    TYPES[cls.__name__] = cls
    _NAMES[cls] = cls.__name__
    return cls


def field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names, looked up once (``dataclasses.fields`` took 35 us a
    message: two of them a statement, on both sides of the pipe)."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def frames_of(message: Any) -> list[bytes]:
    """``message`` as its JSON, then its raw frames (each a copy: the values may change
    once the caller goes on)."""
    frames: list[bytes] = []
    typed = [False]

    def default(value: Any) -> Any:
        kind = type(value)
        name = _NAMES.get(kind)
        if name is not None:
            typed[0] = True
            return {"__type__": name, **{f: getattr(value, f) for f in field_names(kind)}}
        if kind is array:
            frames.append(value.tobytes())
            return {"__frame__": len(frames) - 1, "typecode": value.typecode}
        if kind is bytes or kind is bytearray or kind is memoryview:
            frames.append(bytes(value))
            return {"__frame__": len(frames) - 1}
        if kind.__module__ == "numpy" and hasattr(value, "tobytes") \
                and hasattr(value, "shape"):
            frames.append(value.tobytes())  # (C order, whatever the array's own)
            return {"__frame__": len(frames) - 1, "dtype": value.dtype.str,
                    "shape": list(value.shape)}
        raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")

    kind = type(message)
    if kind not in _NAMES:
        raise TypeError(f"{kind.__name__} is not a registered message")
    # the fields as they are (``asdict`` would deep-copy a training batch's lists first)
    envelope = {"type": _NAMES[kind], **{f: getattr(message, f) for f in field_names(kind)}}
    encoder = c_make_encoder(None, default, encode_basestring_ascii, None, ": ", ", ",
                             False, False, True)
    head = "".join(encoder(envelope, 0)).encode("utf-8")
    if not frames and not typed[0]:
        return [head]
    return [_PACKED + head, *frames]  # (the mark says: read it with its frames)


def packed(parts: list[bytes]) -> bytes:
    """``frames_of(message)`` as the one buffer a pipe carries."""
    if len(parts) == 1 and parts[0][:1] != _PACKED:
        return parts[0]
    parts = [parts[0][1:], *parts[1:]]
    lengths = struct.pack(f"<I{len(parts)}Q", len(parts), *map(len, parts))
    return b"".join([_PACKED, lengths, *parts])


def unpacked(data: bytes) -> tuple[bytes, list[memoryview] | None]:
    """A buffer's JSON and its frames (views of it, not copies); None for frames when it
    is plain JSON. ``CorruptPipe`` when its lengths do not add up."""
    if data[:1] != _PACKED:
        return data, None
    if len(data) < 5:
        raise CorruptPipe("a packed message shorter than its header")
    (count,) = _COUNT.unpack_from(data, 1)
    at = 5 + 8 * count
    if count < 1 or at > len(data):
        raise CorruptPipe(f"a packed message of {len(data)} bytes says {count} parts")
    lengths = struct.unpack_from(f"<{count}Q", data, 5)
    if at + sum(lengths) != len(data):
        raise CorruptPipe(f"a packed message of {len(data)} bytes says its parts take "
                          f"{at + sum(lengths)}")
    view, parts = memoryview(data), []
    for length in lengths:
        parts.append(view[at:at + length])
        at += length
    return bytes(parts[0]), parts[1:]


def decode(data: bytes) -> Any:
    """The message in ``data`` (``packed`` or plain JSON); ``ValueError`` when it is not
    one, ``CorruptPipe`` (a ``ValueError``) when its frames are not as it says."""
    head, frames = unpacked(data)
    if frames is None:
        return _message(loads(head.decode("utf-8")))
    _reading.frames, _reading.used = frames, 0
    try:
        raw = loads(head.decode("utf-8"), _scan)
        if _reading.used != len(frames):
            raise CorruptPipe(f"a message brought {len(frames)} frames and used "
                              f"{_reading.used}")
    finally:
        _reading.frames = None
    return _message(raw)


def _message(raw: Any) -> Any:
    cls = TYPES.get(raw.pop("type", None) if isinstance(raw, dict) else None)
    if cls is None:
        raise ValueError("not a kernel message")
    return _built(cls, raw)


def _built(cls: type, raw: dict) -> Any:
    names = field_names(cls)
    try:
        return cls(**{k: v for k, v in raw.items() if k in names})
    except TypeError as e:  # a field missing
        raise ValueError(f"not a {cls.__name__}: {e}") from None


_reading = threading.local()  # the frames of the message being read, on this thread


def _object(raw: dict) -> Any:
    """Each JSON object of a packed message as it is read: a frame's place becomes the
    frame's value, a ``__type__`` its dataclass."""
    if "__frame__" in raw:
        return _frame(raw)
    name = raw.pop("__type__", None)
    if name is None:
        return raw
    cls = TYPES.get(name) if type(name) is str else None
    if cls is None:
        raise ValueError(f"not a known part of a message: {name!r}")
    return _built(cls, raw)


def _frame(raw: dict) -> Any:
    frames, index = _reading.frames, raw["__frame__"]
    if type(index) is not int or not 0 <= index < len(frames):
        raise CorruptPipe(f"a message names frame {index!r} of {len(frames)}")
    _reading.used += 1
    data = frames[index]
    try:
        if "typecode" in raw:
            values = array(raw["typecode"])
            values.frombytes(data)
            return values
        if "dtype" in raw:
            import numpy as np

            # writable (a bytearray), for ``torch.from_numpy``
            return np.frombuffer(bytearray(data), dtype=np.dtype(raw["dtype"])).reshape(
                raw["shape"])
    except (TypeError, ValueError) as e:
        raise CorruptPipe(f"frame {index} is not what the message says: {e}") from None
    return bytes(data)


_scan = c_make_scanner(JSONDecoder(object_hook=_object))
