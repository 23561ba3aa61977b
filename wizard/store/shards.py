"""Which shards of the bot a process serves: one advisory lock file per shard beside the
database, so that two live processes never serve the same servers."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from wizard.store.db import DatabaseUnavailable, unavailable


class ShardClaim:
    """Advisory locks (``flock``) on ``<database>.shard-<id>.lock``, one per shard this process
    serves: a second live process for the same shard is refused at start; the kernel drops
    the locks when the process dies, however it dies."""

    def __init__(self, path: Path, shards: Iterable[int]) -> None:
        self._files: list[Any] = []
        try:
            if shards:
                path.parent.mkdir(parents=True, exist_ok=True)
            for shard in sorted(set(shards)):
                lock = path.with_name(f"{path.name}.shard-{shard}.lock")
                handle = lock.open("a+")
                self._files.append(handle)
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    handle.seek(0)
                    owner = handle.read().strip() or "unknown"
                    raise DatabaseUnavailable(
                        f"{path}: shard {shard} is already served by another process (pid {owner})",
                        "stop that process, or give this one other SHARD_IDS",
                    ) from None
                handle.seek(0)
                handle.truncate()
                handle.write(str(os.getpid()))
                handle.flush()
        except OSError as e:
            self.release()
            raise unavailable(path, e) from e
        except BaseException:
            self.release()
            raise

    def release(self) -> None:
        """Let another process serve these shards."""
        for handle in self._files:
            handle.close()  # closing the file releases its lock
        self._files = []
