"""Learning the games through Discord: ``/help``, the paged ``/rules`` tutorial, its practice
game, all through the simulator with the real client.

Every page of every tutorial is reached by clicking, as a member would; each picture is
decoded and read back against the engine with the tutorial's own checks
(:func:`tests.tutorial.pictures.page_problems`).
"""

from __future__ import annotations

import pytest

from bot.features.learning import Learning
from bot.settings import Settings
from engine import get_spec
from i18n import phrase, translate
from tests.bot.helpers import (
    decode_png,
    last_board_message,
    match_id_of,
    pinged,
    stored_match,
)
from tests.bot.test_leiff import table_id
from tests.bot.test_vs_bot import ai_in_thread
from tests.discord_sim.models import SimMessage
from tests.tutorial.pictures import page_problems
from tutorial import help_text, tutorial_games, tutorial_page, tutorial_pages


def embed_of(message: SimMessage) -> dict:
    assert len(message.embeds) == 1, message.embeds
    return message.embeds[0]


def check_page(message: SimMessage, game: str, number: int, language: str = "en") -> None:
    """The message shows page ``number`` of ``game``: words, counter, buttons, picture."""
    page = tutorial_page(game, number, language)
    embed = embed_of(message)
    title = phrase(language, get_spec(game).title())
    assert embed["title"] == f"{title} · {page.title}"
    assert embed["description"] == page.body
    assert embed["footer"]["text"] == page.counter
    assert embed["image"]["url"] == f"attachment://{page.filename}"
    assert message.attachments[0].filename == page.filename
    image = decode_png(message)
    assert page_problems(game, number, image, language) == [], (game, number)
    buttons = {b.label: b for b in message.buttons}
    previous = translate(language, "bot.learning.previous")
    following = translate(language, "bot.learning.next")
    assert buttons[previous].disabled == (number == 1)
    assert buttons[following].disabled == (number == page.count)
    practice = translate(language, "tutorial.practice.button")
    assert (practice in buttons) == (number == page.count)


async def test_help_says_what_the_bot_is_in_one_private_message(sim, world, bot):
    answer = await sim.slash(world.alice, "help")
    assert answer.ephemeral
    message = answer.last_message
    text = help_text("en", bot_name=sim.bot_user.display_name)
    embed = embed_of(message)
    assert embed["title"] == text.title and embed["description"] == text.markdown()
    description = embed["description"]
    for game in ("Lefe", "Dalen", "Lublache", "Les", "Leiff"):
        assert f"**{game}**:" in description
    for command in ("`/play game:Lefe`", "`/rules game:Lefe`", "/leaderboard", "/settings"):
        assert command in description
    assert f"opponent:@{sim.bot_user.display_name}" in description
    assert [b.label for b in message.buttons] == [
        f"Learn {phrase('en', get_spec(g).title())}" for g in tutorial_games()
    ]
    assert not [m for m in world.channel.messages if not m.ephemeral], "/help posted publicly"

    # A German client reads it in German, the commands as German clients name them.
    world.bob.locale = "de"
    german = (await sim.slash(world.bob, "help")).last_message
    assert embed_of(german)["title"] == help_text("de").title
    assert "/spielen" in embed_of(german)["description"]
    assert "Lefe lernen" in [b.label for b in german.buttons]
    sim.assert_no_bot_errors()


@pytest.mark.parametrize("game", tutorial_games())
async def test_every_page_of_a_tutorial_is_reached_by_clicking(sim, world, bot, game):
    helped = (await sim.slash(world.alice, "help")).last_message
    title = phrase("en", get_spec(game).title())
    opened = await sim.click(world.alice, helped, f"Learn {title}")
    page = opened.last_message
    assert page.ephemeral and page.id != helped.id, "/help's button opens its own message"
    count = len(tutorial_pages(game))
    check_page(page, game, 1)
    for number in range(2, count + 1):
        turned = await sim.click(world.alice, page, "Next")
        assert turned.last_message.id == page.id, "Next turns the page in place"
        page = sim.state.messages[page.id]
        check_page(page, game, number)
    back = await sim.click(world.alice, page, "Previous")
    check_page(sim.state.messages[back.last_message.id], game, count - 1)
    # /rules opens the same tutorial directly.
    direct = await sim.slash(world.alice, "rules", game=game)
    assert direct.ephemeral
    check_page(direct.last_message, game, 1)
    sim.assert_no_bot_errors()


async def test_a_tutorial_reads_in_german_for_a_german_client(sim, world, bot):
    world.carol.locale = "de"
    page = (await sim.slash(world.carol, "rules", game="lublache")).last_message
    check_page(page, "lublache", 1, "de")
    await sim.click(world.carol, page, "Weiter")
    check_page(sim.state.messages[page.id], "lublache", 2, "de")
    sim.assert_no_bot_errors()


async def test_an_old_page_turns_after_a_restart(sim, world, make_bot):
    await sim.start_bot(make_bot)
    page = (await sim.slash(world.alice, "rules", game="dalen")).last_message
    await sim.click(world.alice, page, "Next")
    await sim.restart_bot(make_bot)
    # The page was drawn by the old process; its Next is served by the new one.
    turned = await sim.click(world.alice, sim.state.messages[page.id], "Next")
    assert turned.last_message.id == page.id
    check_page(sim.state.messages[page.id], "dalen", 3)
    sim.assert_no_bot_errors()


async def last_page(sim, user, game: str) -> SimMessage:
    page = (await sim.slash(user, "rules", game=game)).last_message
    for _ in range(len(tutorial_pages(game)) - 1):
        await sim.click(user, sim.state.messages[page.id], "Next")
    return sim.state.messages[page.id]


async def test_the_last_page_starts_a_practice_game_against_the_bot(sim, world, make_bot):
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    page = await last_page(sim, world.alice, "lefe")
    await sim.click(world.alice, page, "Practise against the bot (easy)")
    board = last_board_message(world.channel)
    match = await stored_match(handle, match_id_of(board))
    assert match.game == "lefe" and match.status == "running"
    assert match.vs_bot and match.bot_level == "easy" and not match.rated
    assert [s.user_id for s in match.seats] == [world.alice.id, sim.bot_user.id]
    assert pinged(board) == {world.alice.id}
    # The tutorial page itself is left as it was.
    assert sim.state.messages[page.id].embeds == page.embeds
    sim.assert_no_bot_errors()


async def test_the_leiff_practice_button_deals_a_table_with_bot_seats(sim, world, make_bot):
    handle = await sim.start_bot(lambda: make_bot(ai_move=ai_in_thread))
    page = await last_page(sim, world.bob, "leiff")
    started = await sim.click(world.bob, page, "Practise against the bot (easy)")
    await handle.client.delivery.bots_idle()
    table = next(m for m in world.channel.messages if not m.ephemeral and "table #" in m.content)
    match = await stored_match(handle, table_id(table))
    assert match.game == "leiff" and match.status == "running", started.text
    assert [s.is_bot for s in match.seats] == [False, True, True]
    assert match.seats[0].user_id == world.bob.id
    assert sim.dms(world.bob), "the member's hand arrives by DM"
    sim.assert_no_bot_errors()


async def test_rules_link_the_published_rules_page(sim, world, make_bot):
    handle = await sim.start_bot(make_bot)
    page = (await sim.slash(world.alice, "rules", game="les")).last_message
    assert not [b for b in page.buttons if b.url], "no link without DOCS_URL"
    learning = next(f for f in handle.client.features if isinstance(f, Learning))
    learning.docs_url = "https://example.org/leafbot/docs/"
    linked = (await sim.slash(world.alice, "rules", game="les")).last_message
    (link,) = [b for b in linked.buttons if b.url]
    assert link.label == "Rules page"
    assert link.url == "https://example.org/leafbot/docs/rules/les.md"
    sim.assert_no_bot_errors()


def test_the_docs_url_is_read_from_the_environment():
    assert Settings.load({"DOCS_URL": " https://x.org/docs "}, dotenv=None).docs_url == (
        "https://x.org/docs"
    )
    assert Settings.load({}, dotenv=None).docs_url is None
