// The Activity's sign-in on the page's side: Discord's embedded app SDK, then the server.
//
// Inside Discord the page runs in a frame whose address carries frame_id, instance_id,
// platform, guild_id and channel_id. The SDK's handshake with Discord (ready), the user's
// consent (authorize: an OAuth2 code), the server's exchange of that code (POST /api/token:
// it checks the code, the user and the Activity instance with Discord and issues the
// socket's session), then authenticate with the access token the server returns, which the
// SDK needs for the commands that follow. The page never sees the client secret.
import { DiscordSDK } from "@discord/embedded-app-sdk";

export interface DiscordSignIn {
  /** The web table's session: the socket is opened with it. */
  session: string;
  /** The member signed in. */
  user: { id: string; name: string; locale: string };
  /** The channel the Activity was launched in, as Discord told the server (null in none). */
  channel: string | null;
  /** The frame's own word for it (the SDK's channelId), for the page to start on. */
  frameChannel: string | null;
}

/** Whether the page runs as a Discord Activity (Discord's frame parameters are there). */
export function inDiscord(search: string = location.search): boolean {
  const query = new URLSearchParams(search);
  return query.has("frame_id") && query.has("instance_id");
}

/** Sign in through Discord; ``clientId`` is the application's (public) OAuth2 client id. */
export async function signInWithDiscord(clientId: string): Promise<DiscordSignIn> {
  // Console lines stay in the page: forwarding them to Discord's console is not needed.
  const sdk = new DiscordSDK(clientId, { disableConsoleLogOverride: true });
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const answer = await fetch("/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code, instance_id: sdk.instanceId }),
  });
  if (!answer.ok) throw new Error(`Discord sign-in refused: ${answer.status}`);
  const signed = (await answer.json()) as {
    access_token: string;
    session: string;
    user: { id: string; name: string; locale: string };
    channel: string | null;
  };
  await sdk.commands.authenticate({ access_token: signed.access_token });
  return {
    session: signed.session,
    user: signed.user,
    channel: signed.channel,
    frameChannel: sdk.channelId,
  };
}

/** The matches the Activity offers: the channel's and the member's own. */
export interface ActivityMatches {
  channel: string | null;
  here: { match: number; game: string; status: string }[];
  mine: { match: number; game: string; status: string }[];
}

export async function activityMatches(session: string): Promise<ActivityMatches> {
  const answer = await fetch("/api/activity/matches", { headers: { "X-Session": session } });
  if (!answer.ok) throw new Error(`matches refused: ${answer.status}`);
  return (await answer.json()) as ActivityMatches;
}

/** The application's client id, which the server knows from its environment. */
export async function clientId(): Promise<string> {
  const answer = await fetch("/api/activity/client");
  if (!answer.ok) throw new Error(`no Activity here: ${answer.status}`);
  return ((await answer.json()) as { client_id: string }).client_id;
}
