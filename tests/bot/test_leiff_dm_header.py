"""Each player's Leiff DM says which table it belongs to: the channel (a mention, seen as
"#games" and a link to it) and the server by name, in the player's language."""

from __future__ import annotations

from tests.bot.test_leiff import open_table


def hand_dm(sim, user):
    dms = [m for m in sim.dms(user) if m.attachments]
    assert dms, f"{user.name} got no hand"
    return dms[-1]


async def test_the_hand_dm_names_the_channel_and_the_server(sim, world, bot):
    world.bob.locale = "de"
    match_id, _ = await open_table(sim, world, [world.alice, world.bob])
    english = hand_dm(sim, world.alice).text.splitlines()[0]
    german = hand_dm(sim, world.bob).text.splitlines()[0]
    channel = f"<#{world.channel.id}>"
    assert english == f"**Leiff** at {channel} in Leaf Club · table #{match_id} · your hand"
    assert german == f"**Leiff** in {channel} auf Leaf Club · Tisch #{match_id} · deine Hand"
    sim.assert_no_bot_errors()
