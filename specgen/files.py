"""Reading untrusted trees: a bounded read and a folder walk that no input can exhaust.

Everything specgen reads may come from a pull request: documents, headers, accept files, the
output folder. A file is read only after `fstat` says it is a regular file no larger than
the limit (a link to /dev/zero, a FIFO or a huge file costs nothing), and a folder tree is
walked with an explicit stack (a tree thousands of levels deep is no RecursionError).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator


class ReadError(Exception):
    """A file that was not read: not a regular file, too large, or unreadable."""

    def __init__(self, message: str, *, too_large: bool = False) -> None:
        super().__init__(message)
        self.too_large = too_large


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of a regular file of at most `limit` bytes: the size is checked before the
    first byte (fstat, then a read of at most `limit` + 1 bytes: it may have grown since).
    Links are followed (a document may be one); what they lead to is checked. Raises ReadError."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # a FIFO does not block the open
    except OSError as exc:
        raise ReadError(f"cannot read the file: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ReadError("not a regular file (a folder, a device or a FIFO); not read")
        if info.st_size > limit:
            raise ReadError(f"{info.st_size / 2**20:.1f} MiB", too_large=True)
        try:
            data = file.read(limit + 1)
        except OSError as exc:
            raise ReadError(f"cannot read the file: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise ReadError(f"over {limit / 2**20:.0f} MiB", too_large=True)
    return data


def walk(top: str, enter: Callable[[str], bool] = lambda name: True) -> Iterator[tuple[str, list[str]]]:
    """(folder, its file names sorted) for `top` and every folder under it that `enter` (given
    the folder's name) accepts, top-down in sorted order; links to folders are not entered,
    folders that cannot be read are passed over. Iterative: depth costs no stack."""
    stack = [top]
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        dirs, names = [], []
        for entry in entries:  # as os.walk: a link to a folder is a folder, never entered
            try:
                if not entry.is_dir():
                    names.append(entry.name)
                elif not entry.is_symlink():
                    dirs.append(entry.name)
            except OSError:
                continue
        yield folder, sorted(names)
        stack.extend(os.path.join(folder, d) for d in sorted((d for d in dirs if enter(d)), reverse=True))
