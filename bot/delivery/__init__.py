"""The delivery wing of the Discord layer: service updates to messages, and what of them went out.

:mod:`bot.delivery.delivery` sends an update's channel message and private messages (the
features build them); :mod:`bot.delivery.redelivery` sends again what Discord refused for
a while or a restart left behind; :mod:`bot.delivery.direct_messages` and
:mod:`bot.delivery.turn_dms` send DMs; :mod:`bot.delivery.bot_turns` posts the bot seats'
turns the core plays; :mod:`bot.delivery.records` is the wing's own record store (message
ids, delivery records, refused DMs), so the match service keeps no bookkeeping calls of it.
"""
