import { once } from 'node:events';
import { connect } from 'node:net';

/**
 * A MONITOR connection on a socket of its own: `onCommand` gets each command Redis runs, in the order it runs them,
 * as its name and arguments.
 *
 * Not ioredis' `monitor()`: it sets the connection's monitoring state one microtask after MONITOR's `+OK`, so a
 * command another client runs at that moment arrives in the same read, is taken for a reply with no command
 * waiting for it, and fails the connection ("Command queue state error"); with a busy Redis (other test processes)
 * that happened. Here every line after `+OK` is a command.
 */
export async function monitorRedis(url: string, onCommand: (args: string[]) => void): Promise<{ close(): void }> {
  const { hostname, port, username, password } = new URL(url);
  const socket = connect(Number(port || 6379), hostname.replace(/^\[|\]$/g, ''));
  try {
    await once(socket, 'connect');
    socket.setEncoding('utf8');
    const answers: string[] = password ? ['+OK', '+OK'] : ['+OK'];
    const ready = new Promise<void>((resolve, reject) => {
      let buffer = '';
      socket.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\r\n'); end !== -1; end = buffer.indexOf('\r\n')) {
          const line = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const expected = answers.shift();
          if (expected === undefined) onCommand(commandOf(line));
          else if (line !== expected) reject(new Error(`Redis answered ${line} instead of ${expected}`));
          else if (answers.length === 0) resolve();
        }
      });
      socket.once('error', reject);
      socket.once('close', () => reject(new Error('the MONITOR connection closed')));
    });
    if (password)
      socket.write(
        command(username ? ['AUTH', decodeURIComponent(username), decodeURIComponent(password)] : ['AUTH', decodeURIComponent(password)]),
      );
    socket.write(command(['MONITOR']));
    await ready;
  } catch (err) {
    socket.destroy();
    throw err;
  }
  return { close: () => socket.destroy() };
}

/** A command in the protocol's array form. */
function command(args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

/** The quoted arguments of a MONITOR line (`+<time> [<db> <client>] "get" "key"`), unescaped. */
function commandOf(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!.replace(/\\(["\\])/g, '$1'));
}
