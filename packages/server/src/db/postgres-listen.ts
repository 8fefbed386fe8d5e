import type pg from "pg";

export async function listenOn(config: pg.ClientConfig, channel: string, onNotify: () => void, onLost: (error: Error) => void): Promise<{ close(): Promise<void> }> {
  const { default: pg } = await import("pg");
  const client = new pg.Client(config);
  let over = false;
  const lost = (error: Error) => {
    if (over) return;
    over = true;
    onLost(error);
  };
  client.on("error", lost);
  client.on("end", () => lost(new Error("the LISTEN connection ended")));
  client.on("notification", () => onNotify());
  try {
    await client.connect();
    const { rows } = await client.query<{ schema: string }>("select current_schema() as schema");
    await client.query(`listen ${client.escapeIdentifier(`${channel}:${rows[0]?.schema ?? "public"}`)}`);
  } catch (error) {
    over = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  return {
    close: async () => {
      over = true;
      await client.end();
    },
  };
}
