/** The SQLSTATE a database statement fails with, or 'ok': for tests of what a constraint or trigger refuses. */
export async function sqlState(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
    return 'ok';
  } catch (err) {
    return (err as { code?: string }).code ?? String(err);
  }
}
