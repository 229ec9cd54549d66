"""A tiny throwaway bot that uses every Discord feature the simulator supports.

It is deliberately not the real bot: it exists so the simulator's tests exercise slash
commands (with choices, members, subcommand groups, permissions, autocomplete), files,
persistent and temporary views, selects, modals, deferrals, followups, edits, DMs and
plain channel sends through the real discord.py client. What its callbacks receive goes
into a ``Recorder`` that outlives restarts, so tests can assert on the bot's side too.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

CELLS = ["a1", "a2", "b1", "b2", "e1", "e2", "e3"]


@dataclass
class Recorder:
    """What the bot's callbacks saw, across client instances."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    ready_count: int = 0
    resumed_count: int = 0
    instances: int = 0

    def add(self, name: str, **details: Any) -> None:
        self.calls.append((name, details))

    def last(self, name: str) -> dict[str, Any]:
        for call, details in reversed(self.calls):
            if call == name:
                return details
        raise LookupError(
            f"the bot never recorded {name!r}; it recorded {[c for c, _ in self.calls]}"
        )


def board_png(colour: tuple[int, int, int] = (20, 120, 40)) -> bytes:
    image = Image.new("RGB", (64, 48), colour)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


class ChallengeView(discord.ui.View):
    """Persistent: fixed custom ids, no timeout, re-registered by every new client."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__(timeout=None)
        self.recorder = recorder

    @discord.ui.button(
        label="Accept", style=discord.ButtonStyle.success, custom_id="challenge:accept"
    )
    async def accept(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.recorder.add("accept", user_id=interaction.user.id, message_id=interaction.message.id)
        button.disabled = True
        embed = discord.Embed(title="Match 1", description="Lefe, 6 per side")
        embed.add_field(name="To move", value=interaction.user.display_name)
        embed.set_footer(text="move 0")
        await interaction.response.edit_message(
            content=f"Accepted by {interaction.user.mention}", embed=embed, view=self
        )

    @discord.ui.button(
        label="Decline", style=discord.ButtonStyle.danger, custom_id="challenge:decline"
    )
    async def decline(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.recorder.add("decline", user_id=interaction.user.id)
        await interaction.response.send_message("Declined.", ephemeral=True)


class TemporaryView(discord.ui.View):
    """Not persistent: a restarted client does not know it."""

    def __init__(self, recorder: Recorder) -> None:
        super().__init__(timeout=60)
        self.recorder = recorder

    @discord.ui.button(label="Poke", custom_id="temporary:poke")
    async def poke(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.recorder.add("poke", user_id=interaction.user.id)
        await interaction.response.send_message("Poked.", ephemeral=True)


class CaptureSelect(discord.ui.View):
    def __init__(self, recorder: Recorder) -> None:
        super().__init__(timeout=60)
        self.recorder = recorder

    @discord.ui.select(
        custom_id="capture",
        placeholder="Which tree?",
        min_values=1,
        max_values=2,
        options=[discord.SelectOption(label=f"Tree {n}", value=f"t{n}") for n in (1, 2, 3)],
    )
    async def capture(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        self.recorder.add("capture", values=list(select.values))
        select.disabled = True
        await interaction.response.edit_message(
            content=f"Captured {', '.join(select.values)}", view=self
        )


class SettingsModal(discord.ui.Modal, title="Server settings"):
    prefix = discord.ui.TextInput(label="Prefix", custom_id="prefix", max_length=3)
    note = discord.ui.TextInput(
        label="Note", custom_id="note", required=False, style=discord.TextStyle.paragraph
    )

    def __init__(self, recorder: Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    async def on_submit(self, interaction: discord.Interaction) -> None:
        self.recorder.add("settings", prefix=self.prefix.value, note=self.note.value)
        await interaction.response.send_message(f"Saved prefix {self.prefix.value}", ephemeral=True)


def make_toy_bot(
    recorder: Recorder, *, guild_sync: int | None = None, members_intent: bool = False
) -> commands.Bot:
    """A fresh client instance; ``guild_sync`` syncs to that guild instead of globally."""
    intents = discord.Intents.default()
    intents.members = members_intent
    bot = commands.Bot(command_prefix="!", intents=intents)
    recorder.instances += 1

    @bot.event
    async def on_ready() -> None:
        recorder.ready_count += 1

    @bot.event
    async def on_resumed() -> None:
        recorder.resumed_count += 1

    @bot.listen()
    async def on_message(message: discord.Message) -> None:
        if not message.author.bot:
            recorder.add("message", author_id=message.author.id, channel_id=message.channel.id)

    async def setup_hook() -> None:
        bot.add_view(ChallengeView(recorder))
        if guild_sync is not None:
            guild = discord.Object(id=guild_sync)
            bot.tree.copy_global_to(guild=guild)
            await bot.tree.sync(guild=guild)
        else:
            await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]

    @bot.tree.command(description="Challenge someone")
    @app_commands.describe(game="Which game", opponent="Who", size="Board size")
    @app_commands.choices(
        game=[
            app_commands.Choice(name="Lefe", value="lefe"),
            app_commands.Choice(name="Dalen", value="dalen"),
        ],
        size=[app_commands.Choice(name=str(n), value=n) for n in (5, 6, 7)],
    )
    @app_commands.guild_only()
    async def play(
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        opponent: discord.Member,
        size: app_commands.Choice[int] | None = None,
    ) -> None:
        recorder.add(
            "play",
            game=game.value,
            opponent_id=opponent.id,
            opponent_is_member=isinstance(opponent, discord.Member),
            size=size.value if size else None,
            manage_guild=interaction.permissions.manage_guild,
            app_attach_files=interaction.app_permissions.attach_files,
            channel_id=interaction.channel_id,
        )
        await interaction.response.send_message(
            f"{interaction.user.mention} challenges {opponent.mention} to {game.name}",
            file=discord.File(io.BytesIO(board_png()), filename="board.png"),
            view=ChallengeView(recorder),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=[opponent]),
        )

    @bot.tree.command(description="Place a stone")
    async def move(interaction: discord.Interaction, cell: str, confirm: bool = False) -> None:
        recorder.add("move", cell=cell, confirm=confirm)
        await interaction.response.send_message(f"Played {cell}", ephemeral=True)

    @move.autocomplete("cell")
    async def move_cell(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        recorder.add("move-autocomplete", current=current)
        return [app_commands.Choice(name=c, value=c) for c in CELLS if c.startswith(current)][:25]

    @bot.tree.command(description="Temporary buttons")
    async def poke(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("Poke me", view=TemporaryView(recorder))

    @bot.tree.command(description="Pick trees")
    async def pick(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(
            "Pick", view=CaptureSelect(recorder), ephemeral=True
        )

    @bot.tree.command(description="Server settings")
    @app_commands.default_permissions(manage_guild=True)
    @app_commands.guild_only()
    async def settings(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(SettingsModal(recorder))

    @bot.tree.command(description="Send your hand by DM")
    async def hand(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await interaction.user.send(
                "Your hand", file=discord.File(io.BytesIO(board_png((200, 0, 0))), "hand.png")
            )
        except discord.Forbidden as error:
            recorder.add("hand-refused", code=error.code)
            await interaction.followup.send("I cannot DM you: your DMs are closed.", ephemeral=True)
        else:
            recorder.add("hand-sent")
            await interaction.followup.send("Sent to your DMs.", ephemeral=True)

    @bot.tree.command(description="Slow work")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await asyncio.sleep(0.02)
        await interaction.edit_original_response(content="Step 1")
        await interaction.followup.send("Step 2")
        await interaction.edit_original_response(content="Step 1, revised")

    @bot.tree.command(description="Post twice in the channel")
    async def announce(interaction: discord.Interaction, text: str) -> None:
        await interaction.response.send_message("Posting…", ephemeral=True)
        first = await interaction.channel.send(
            text, allowed_mentions=discord.AllowedMentions.none()
        )
        await first.reply("and a reply", mention_author=False)
        recorder.add("announce", message_id=first.id)

    @bot.tree.command(description="Says something and takes it back")
    async def vanish(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("now you see me")
        await interaction.delete_original_response()

    @bot.tree.command(description="Never answers")
    async def mute(interaction: discord.Interaction) -> None:
        recorder.add("mute")

    @bot.tree.command(description="Crashes")
    async def crash(interaction: discord.Interaction) -> None:
        raise RuntimeError("toy bot crashed on purpose")

    @bot.tree.command(description="Answers too late")
    async def late(interaction: discord.Interaction, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await interaction.response.send_message("too late?")
        except discord.NotFound as error:
            recorder.add("late-refused", code=error.code)

    game = app_commands.Group(name="game", description="Game admin")
    rules = app_commands.Group(name="rules", description="Rules", parent=game)

    @game.command(name="start", description="Start")
    async def game_start(interaction: discord.Interaction, rated: bool = True) -> None:
        recorder.add("game start", rated=rated)
        await interaction.response.send_message(f"Started (rated={rated})")

    @rules.command(name="show", description="Show rules")
    async def rules_show(
        interaction: discord.Interaction, page: app_commands.Range[int, 1, 3]
    ) -> None:
        recorder.add("game rules show", page=page)
        await interaction.response.send_message(f"Rules page {page}", ephemeral=True)

    bot.tree.add_command(game)
    return bot
