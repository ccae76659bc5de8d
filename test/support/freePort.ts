import { once } from 'node:events';
import { createServer } from 'node:net';

/** A port free on loopback now: asked of the kernel, then let go for the process under test to take. */
export async function freePort(): Promise<number> {
	const server = createServer().listen(0, '127.0.0.1');
	await once(server, 'listening');
	const { port } = server.address() as { port: number };
	server.close();
	await once(server, 'close');
	return port;
}
