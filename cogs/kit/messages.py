"""Messages every game's Discord face builds the same way: embeds and uploads from render surfaces, button styles,
answers that always come within Discord's 3 seconds (:class:`Answer`), private answers that never raise
(:func:`tell_privately`) and nonces that make a repeated send after a crash land once (:func:`nonce`)."""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import async_context, interaction_message_response_params

from bot.i18n import N_, Texts, texts
from bot.render.common import Picture, Surface
from bot.storage.records import MatchRecord
from cogs.kit.layout import ButtonRows, as_layout

log = logging.getLogger("cogs.kit")

NO_MENTIONS = discord.AllowedMentions.none()
SORRY = N_("Something went wrong on our side; nothing was changed. Please try again in a moment.")

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


# --- messages from surfaces ----------------------------------------------------------------------------


def embed_of(surface: Surface, *, extra: str = "", colour: discord.Colour | None = None,
             image_url: str | None = None) -> discord.Embed:
    """An embed with the surface's title and text (and ``extra`` lines after it); the picture, if any, as its
    image (``attachment://``, or ``image_url``: the picture uploaded once already, elsewhere); the text stays the
    full description for screen readers and with images off."""
    text = surface.text + (f"\n\n{extra}" if extra else "")
    embed = discord.Embed(title=surface.title, description=text, colour=colour)
    if image_url is not None:
        embed.set_image(url=image_url)
    elif surface.picture is not None:
        embed.set_image(url=f"attachment://{surface.picture.filename}")
    return embed


class PictureFile(discord.File):
    """A picture's upload that knows what it shows (``key``: its file name, alt text and bytes), so an edit that
    would upload the very picture a message already has can leave it out (:class:`cogs.kit.pictures.SentPictures`)."""

    def __init__(self, picture: Picture) -> None:
        super().__init__(io.BytesIO(picture.png), picture.filename, description=picture.alt)
        self.key = (picture.filename, picture.alt, hashlib.blake2b(picture.png, digest_size=16).digest())


def files_of(surface: Surface) -> list[discord.File]:
    """The surface's picture as an upload, with its alt text as the attachment's description."""
    picture = surface.picture
    if picture is None:
        return []
    return [PictureFile(picture)]


def message_kwargs(surface: Surface, *, extra: str = "", view: ButtonRows | None = None,
                   colour: discord.Colour | None = None, image_url: str | None = None,
                   below: str = "") -> dict[str, Any]:
    """``embed``, ``files`` and ``view`` for ``send``; use :func:`edit_kwargs` for edits. ``image_url``: the
    picture is one uploaded already (the embed shows it from there, nothing is uploaded). ``below``: text shown
    under the buttons (:func:`~cogs.kit.layout.layout`)."""
    kwargs: dict[str, Any] = {"embed": embed_of(surface, extra=extra, colour=colour, image_url=image_url),
                              "files": [] if image_url is not None else files_of(surface),
                              "allowed_mentions": NO_MENTIONS}
    if view is not None:
        kwargs["view"] = view
    if below:
        kwargs["below"] = below
    return kwargs


def edit_kwargs(surface: Surface, *, extra: str = "", view: ButtonRows | None = None,
                colour: discord.Colour | None = None, below: str = "") -> dict[str, Any]:
    """``embed``, ``attachments`` (the picture replaces the old one; none: the old ones go) and ``view``
    (``None`` removes the buttons) for an edit; ``below``: text shown under the buttons."""
    kwargs = {"embed": embed_of(surface, extra=extra, colour=colour), "attachments": files_of(surface), "view": view,
              "allowed_mentions": NO_MENTIONS}
    if below:
        kwargs["below"] = below
    return kwargs



def nonce(match: MatchRecord, name: str, channel_id: int) -> str:
    """The nonce of the match's message ``name`` in a channel: the same every time, so Discord answers a send
    repeated after a crash (the message was created, its id never stored) with the message it made the first
    time (``enforce_nonce``). 24 characters (Discord takes 25); unique per match, even across databases."""
    key = f"{match.id}:{match.created_at!r}:{channel_id}:{name}"
    return hashlib.blake2b(key.encode(), digest_size=12).hexdigest()



# --- answering in time ----------------------------------------------------------------------------------

DEFER_AFTER = 1.5  # seconds: Discord drops an interaction not answered within 3 s


class Answer:
    """Answers an interaction once and in time: if the real answer is not ready ``defer_after`` seconds (default
    :data:`DEFER_AFTER`; the bot's ``defer_after``) after the work began, a deferral goes out first (the work goes
    on) and the answer follows as an edit of the original response or a followup. One lock orders the deferral and
    the answer, so never both answer.

    ``thinking``/``ephemeral`` say how to defer: a component's deferral is an update of its message; a command's
    is "thinking", public or ephemeral like the answer it will get. An ephemeral note after a public "thinking"
    deferral removes the public "thinking…" message first (the first followup would take its place, in public)."""

    def __init__(self, interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False,
                 defer_after: float | None = None) -> None:
        self.interaction = interaction
        self._lock = asyncio.Lock()
        self._public_thinking = False
        delay = DEFER_AFTER if defer_after is None else defer_after
        # a timer, not a task: nearly every answer is ready long before it (a task per click costs more)
        self._watch: asyncio.TimerHandle | asyncio.Task[None] = asyncio.get_running_loop().call_later(
            delay, self._start_deferring, thinking, ephemeral)
        #: defer every answer before the work begins (the deferral is awaited as the block is entered)
        self._defer_first = delay <= 0
        if self._defer_first:
            self._watch.cancel()
            self._start_deferring(thinking, ephemeral)

    def _start_deferring(self, thinking: bool, ephemeral: bool) -> None:
        self._watch = asyncio.get_running_loop().create_task(self._defer(thinking, ephemeral))

    async def _defer(self, thinking: bool, ephemeral: bool) -> None:
        async with self._lock:
            if not self.interaction.response.is_done():
                log.info("interaction %s: deferred, the answer takes longer", self.interaction.id)
                await self.interaction.response.defer(thinking=thinking, ephemeral=ephemeral)
                self._public_thinking = thinking and not ephemeral

    async def __aenter__(self) -> Answer:
        if self._defer_first:
            assert isinstance(self._watch, asyncio.Task)
            await asyncio.wait([self._watch])  # (the work may need no round trip that would let it go first)
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        self._watch.cancel()

    async def edit(self, **kwargs: Any) -> None:
        """Edit the component's message (or the command's response)."""
        async with self._lock:
            self._watch.cancel()
            if self.interaction.response.is_done():
                self._public_thinking = False
                await self.interaction.edit_original_response(**as_layout(kwargs, edit=True))
            else:
                await update_clicked_message(self.interaction, **as_layout(kwargs, edit=True))

    async def send(self, content: str | None = None, *, ephemeral: bool = False, **kwargs: Any) -> int | None:
        """A new message (a command's response, or a followup once answered); returns its id when known. A ``view``
        of ``None``: no buttons."""
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        if "view" in kwargs and kwargs["view"] is None:
            del kwargs["view"]
        if content is not None:
            kwargs["content"] = content
        kwargs = as_layout(kwargs, edit=False)
        async with self._lock:
            self._watch.cancel()
            if self.interaction.response.is_done():
                if ephemeral and self._public_thinking:
                    try:
                        await self.interaction.delete_original_response()
                    except discord.HTTPException as error:  # the note then takes its place (in public)
                        log.warning("interaction %s: could not remove the public deferral: %s", self.interaction.id,
                                    error)
                self._public_thinking = False
                message = await self.interaction.followup.send(ephemeral=ephemeral, wait=True, **kwargs)
                return message.id
            callback = await self.interaction.response.send_message(ephemeral=ephemeral, **kwargs)
            return callback.message_id

    async def tell(self, text: str) -> None:
        """An ephemeral note."""
        await self.send(text, ephemeral=True)

    async def acknowledge(self) -> None:
        """Nothing to say: the message will change by itself (a component's deferred update)."""
        async with self._lock:
            self._watch.cancel()
            if not self.interaction.response.is_done():
                await self.interaction.response.defer()




async def update_clicked_message(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Answer a click by editing the message it was made on (Discord's response type 7) with ``kwargs`` (those of
    ``interaction.response.edit_message``, a :class:`~cogs.kit.layout.LiveLayout` as the view), as discord.py does
    but without asking Discord to send the edited message back and making a ``discord.Message`` of it: nothing
    reads it, and that round of parsing was a good part of a click's cost. The bot routes the layout's buttons
    itself, so there is no view for discord.py to keep."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    state = interaction._state
    params = interaction_message_response_params(type=discord.InteractionResponseType.message_update.value,
                                                 previous_allowed_mentions=state.allowed_mentions, **kwargs)
    route = Route("POST", "/interactions/{webhook_id}/{webhook_token}/callback", webhook_id=interaction.id,
                  webhook_token=interaction.token)
    adapter = async_context.get()
    http = state.http
    await adapter.request(route, session=interaction._session, proxy=http.proxy, proxy_auth=http.proxy_auth,
                          payload=None if params.files else params.payload, files=params.files or None,
                          multipart=params.multipart if params.files else None)
    # (discord.py's own record that the interaction is answered: ``is_done()`` and a second answer's refusal)
    response._response_type = discord.InteractionResponseType.message_update


def said(error: Exception, interaction: discord.Interaction) -> str:
    """A refusal's message for the user who met it: in their client's language where the error can say it
    (:meth:`bot.match.errors.ServiceError.said`), else as it is. For private answers only: a user's language is
    never shown to others."""
    say = getattr(error, "said", None)
    return say(texts(interaction.locale)) if callable(say) else str(error)


def private_words(interaction: discord.Interaction) -> Texts:
    """The words of the user's own language (their client's): for what only they see."""
    return texts(interaction.locale)


async def tell_privately(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already; a failure is logged, not raised
    (a button's error path must never raise)."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)
    except discord.HTTPException:
        log.warning("could not answer interaction %s", interaction.id, exc_info=True)
