"""Which shards of the bot a process serves: advisory lock files beside the database, so that
two live processes never serve the same servers."""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from wizard.store.db import DatabaseUnavailable, unavailable


class ShardClaim:
    """Advisory locks (``flock``) beside the database: ``<database>.shard-<id>.lock``, held
    alone, for each shard this process serves, and ``<database>.shard-count-<n>.lock``,
    shared by every process that counts ``n`` shards. A second live process for the same
    shard, or one that counts shards otherwise (its shards would hold other processes'
    servers: shard 0 of 2 holds shards 0 and 2 of 4), is refused at start; the kernel drops
    the locks when the process dies, however it dies."""

    def __init__(self, path: Path, shards: Iterable[int], count: int = 1) -> None:
        self._files: list[Any] = []
        shards = sorted(set(shards))
        if not shards:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # The locks are the file's, beside it: one reached through a link is the same
            # file (QA: a second bot through a symlink took locks of its own).
            path = path.resolve()
            # One process at a time looks at the counts and claims its own: two processes
            # of different counts starting together cannot both see none of the other's.
            with self._lock_file(path, "shards") as claiming:
                fcntl.flock(claiming, fcntl.LOCK_EX)
                self._claim_count(path, count)
                for shard in shards:
                    self._claim_shard(path, shard)
        except OSError as e:
            self.release()
            raise unavailable(path, e) from e
        except BaseException:
            self.release()
            raise

    @staticmethod
    def _lock_file(path: Path, what: str) -> Any:
        return path.with_name(f"{path.name}.{what}.lock").open("a+")

    def _claim_count(self, path: Path, count: int) -> None:
        """Share the lock of ``count`` shards, unless a live process counts otherwise."""
        pattern = re.compile(re.escape(path.name) + r"\.shard-count-(\d+)\.lock")
        for other in path.parent.iterdir():
            found = pattern.fullmatch(other.name)
            if found is None or int(found[1]) == count:
                continue
            with other.open() as handle:  # read only: a lock needs no more
                try:  # free: that count's processes all stopped
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise _other_count(path, int(found[1]), count) from None
        handle = self._lock_file(path, f"shard-count-{count}")
        self._files.append(handle)
        fcntl.flock(handle, fcntl.LOCK_SH)

    def _claim_shard(self, path: Path, shard: int) -> None:
        handle = self._lock_file(path, f"shard-{shard}")
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

    def release(self) -> None:
        """Let another process serve these shards."""
        for handle in self._files:
            handle.close()  # closing the file releases its lock
        self._files = []


def _other_count(path: Path, theirs: int, mine: int) -> DatabaseUnavailable:
    """The refusal of a process counting ``mine`` shards beside a live one counting ``theirs``."""
    if theirs == 1:  # a process that serves every server leaves no shard to this one
        hint = "stop it first"
    else:
        hint = (
            "every process on one database needs the same SHARD_COUNT: stop the others, or "
            f"start this one with {_count_text(theirs)}"
        )
    return DatabaseUnavailable(
        f"{path}: another live process serves it with {_count_text(theirs)}, this one with "
        f"{_count_text(mine)}",
        hint,
    )


def _count_text(count: int) -> str:
    if count == 1:
        return "SHARD_COUNT=1 (or none: one process for every server)"
    return f"SHARD_COUNT={count}"
