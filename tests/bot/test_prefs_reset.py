"""``/prefs``' **Reset to defaults** through the simulator, in both languages: the button of
a ``/prefs`` answer asks first (the defaults listed, in the same private message), **Keep my
choices** changes nothing, **Reset** puts the hints, the theme and the turn DMs back to their
defaults and says so; a vacation stays."""

from __future__ import annotations

from i18n import translate
from i18n.typed import write_switch


def labels(message) -> list[str]:
    return [button.label for button in message.buttons]


async def test_prefs_reset_asks_then_puts_every_choice_back(sim, world, language, bot):
    service = bot.client.service
    alice = world.alice
    on = write_switch(language, True)
    off = write_switch(language, False)
    changed = await sim.slash(alice, "prefs", hints=off, theme="night", turn_dms=on)
    assert changed.ephemeral
    chosen = await service.preferences(alice.id)
    assert (chosen.hints, chosen.theme, chosen.turn_dms) == (False, "night", True)
    reset_label = translate(language, "bot.prefs.reset.button")
    assert labels(changed.last_message) == [reset_label]

    # the button asks first, in the same private message, listing the defaults
    await sim.click(alice, changed.last_message, reset_label)
    question = sim.state.messages[changed.last_message.id]
    assert question.ephemeral
    assert question.text.startswith(translate(language, "bot.prefs.reset.question"))
    assert translate(language, "bot.prefs.hints.default", games=3) in question.text
    assert translate(language, "bot.prefs.theme.server") in question.text
    assert translate(language, "bot.prefs.turn_dms.off") in question.text
    assert labels(question) == [
        translate(language, "bot.prefs.reset.yes"),
        translate(language, "bot.prefs.reset.no"),
    ]
    # "keep my choices": nothing changes, the preferences are shown again
    await sim.click(alice, question, translate(language, "bot.prefs.reset.no"))
    kept = sim.state.messages[question.id]
    assert translate(language, "bot.prefs.hints.off") in kept.text
    assert (await service.preferences(alice.id)) == chosen

    await sim.click(alice, kept, reset_label)
    asked_again = sim.state.messages[kept.id]
    await sim.click(alice, asked_again, translate(language, "bot.prefs.reset.yes"))
    done = sim.state.messages[kept.id]
    assert done.text.startswith(translate(language, "bot.prefs.reset.done"))
    assert translate(language, "bot.prefs.hints.default", games=3) in done.text
    assert translate(language, "bot.prefs.theme.server") in done.text
    assert translate(language, "bot.prefs.turn_dms.off") in done.text
    after = await service.preferences(alice.id)
    assert (after.hints, after.theme, after.turn_dms) == (None, None, None)
    # /prefs reads the same from storage (another process would too)
    shown = await sim.slash(alice, "prefs")
    assert translate(language, "bot.prefs.hints.default", games=3) in shown.text
    assert not world.channel.public_messages
    sim.assert_no_bot_errors()


async def test_a_reset_leaves_a_vacation_as_it_is_and_says_so(sim, world, bot):
    service = bot.client.service
    away = await sim.slash(world.bob, "prefs", vacation=7, hints="on")
    until = (await service.preferences(world.bob.id)).vacation_until
    assert until is not None
    await sim.click(world.bob, away.last_message, "Reset to defaults")
    question = sim.state.messages[away.last_message.id]
    assert "Your vacation goes on as it is." in question.text
    await sim.click(world.bob, question, "Reset")
    after = await service.preferences(world.bob.id)
    assert after.hints is None and after.vacation_until == until
    assert "On vacation until" in sim.state.messages[question.id].text
    sim.assert_no_bot_errors()
