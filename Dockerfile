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
# The metadata first: the dependency layer is rebuilt only when pyproject.toml changes.
COPY pyproject.toml README.md ./
# Empty packages stand in for the code here; the build's leftovers go with them, or setuptools
# would reuse their empty files (COPY keeps the older modification times of the real ones).
RUN mkdir wizard bot \
    && touch wizard/__init__.py bot/__init__.py \
    && /venv/bin/pip install . \
    && /venv/bin/pip uninstall --yes wizard-bot \
    && rm -rf wizard bot build ./*.egg-info
COPY wizard ./wizard
COPY bot ./bot
RUN /venv/bin/pip install --no-deps . \
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
