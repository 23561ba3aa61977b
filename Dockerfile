# The Wizard Discord bot: a small image that runs `python -m bot` as a non-root user, with
# the game database on the /data volume.
#
#   docker build -t wizard-bot .
#   docker volume create wizard-data
#   docker run -d --name wizard --restart unless-stopped \
#       --env-file .env -v wizard-data:/data wizard-bot
#
# Settings come from the environment only (see .env.example); no .env is read inside the
# image, and the token never becomes part of it.

# --- build: install the project and its dependencies into a virtual environment -------------
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1

RUN python -m venv /venv
WORKDIR /src
# The lock first: the dependency layer is rebuilt only when requirements.txt changes. Every
# file pip fetches is checked against the lock's hashes (scripts/lock.sh makes the lock).
COPY requirements.txt ./
RUN /venv/bin/pip install --require-hashes -r requirements.txt
COPY pyproject.toml README.md ./
COPY wizard ./wizard
COPY bot ./bot
# --no-build-isolation: built by the locked setuptools already in /venv, nothing unpinned.
RUN /venv/bin/pip install --no-deps --no-build-isolation . \
    && /venv/bin/pip check \
    && /venv/bin/python -c "import bot.app, wizard.service"

# --- run: the virtual environment on a clean slim image --------------------------------------
FROM python:3.11-slim

ENV PATH=/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DATABASE_PATH=/data/wizard.db \
    WIZARD_ENV_FILE=

# A fixed uid, so that a bind-mounted host folder can be given to it: chown 10001 <folder>.
RUN groupadd --system --gid 10001 wizard \
    && useradd --system --uid 10001 --gid wizard --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin wizard \
    && mkdir /data \
    && chown wizard:wizard /data

COPY --from=build /venv /venv

USER wizard
# A relative DATABASE_PATH (such as .env.example's default) also lands on the volume.
WORKDIR /data
VOLUME ["/data"]

# The bot stops cleanly on SIGTERM (docker stop): it closes the gateway, then the database.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
