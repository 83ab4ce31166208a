/**
 * Runs once per server process: take over SIGINT/SIGTERM for a clean shutdown (lib/shutdown.ts),
 * migrate the database (and create the demo merchant on the embedded default), then start the
 * background loops (webhook dispatcher, sandbox PSP, settlement).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServer } = await import("@/lib/server-start");
  await startServer();
}
