// Small network probes used before starting embedded parts, so a taken port fails with a message naming the
// variable that moves it instead of a cryptic child-process error.
import net from 'node:net';

function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port: 0, host }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export function canConnect(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

class PortTakenError extends Error {
  constructor(
    readonly port: number,
    readonly variable: string,
    what: string,
  ) {
    super(`${what} cannot start: port ${port} is already in use. Set ${variable} to a free port (or stop what is using it).`);
    this.name = 'PortTakenError';
  }
}

export async function assertPortFree(port: number, variable: string, what: string): Promise<void> {
  if (!(await isPortFree(port))) throw new PortTakenError(port, variable, what);
}
