"""reader_stream.py — joins the short lines rank_reader.py prints on every node (through
srun, possibly interleaved between nodes) back into one record per rank and per node."""
import base64
import json
import zlib


def records(output):
    """Yields (node, pid, record) for every complete record in srun's output; pid is "-"
    for a node's closing record. A record with parts missing is an error."""
    pieces = {}
    for line in output.splitlines():
        words = line.split(" ")
        if len(words) != 5:
            raise ValueError(f"not a reader line: {line[:120]!r}")
        node, pid, part, parts, text = words
        pieces.setdefault((node, pid), [None] * int(parts))[int(part)] = text
    for (node, pid), parts in pieces.items():
        if None in parts:
            raise ValueError(f"the record of {pid} on {node} is incomplete")
        yield node, pid, json.loads(zlib.decompress(base64.b64decode("".join(parts))))
