import type { Db } from '@aerie/panel/db/database';
import { nodeAddresses } from './nodes.repository';
import { daemonSocketOrigin, nodeAddress } from './nodes.service';

/** A host name or IPv4 address: nothing that could end a CSP source list or start another directive. */
const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/;

/** How long the list is reused: the shell is rendered often, nodes are added rarely. */
const CACHE_MS = 5000;

/**
 * Where the browser talks to the nodes' daemons: for each node its HTTP origin (signed upload and download URLs)
 * and the matching websocket origin (the console), exactly as the panel hands them out (`nodeAddress`,
 * `websocketCredentials`). A node whose address is not a plain host name is left out and logged: the console
 * there would be refused by the page's policy rather than the policy being broken by the name.
 */
export class NodeOrigins {
  #cached: { at: number; origins: Promise<string[]> } | null = null;
  readonly #warned = new Set<string>();

  constructor(
    private readonly db: Db,
    private readonly log: { warn(message: string): void },
  ) {}

  list(): Promise<string[]> {
    const now = Date.now();
    if (!this.#cached || now - this.#cached.at >= CACHE_MS) {
      const origins = this.#load();
      // A failed read is not kept: the next page asks the database again.
      origins.catch(() => {
        this.#cached = null;
      });
      this.#cached = { at: now, origins };
    }
    return this.#cached.origins;
  }

  async #load(): Promise<string[]> {
    const nodes = await nodeAddresses(this.db);
    const origins = new Set<string>();
    for (const node of nodes) {
      const port = Number(node.daemon_listen);
      if (!HOST.test(node.fqdn) || !Number.isInteger(port) || port < 1 || port > 65535) {
        if (!this.#warned.has(node.fqdn)) {
          this.#warned.add(node.fqdn);
          this.log.warn(`Node "${node.name}": "${node.fqdn}" is not a host name the page's policy can name`);
        }
        continue;
      }
      const address = { scheme: node.scheme, fqdn: node.fqdn, daemonListen: port };
      origins.add(nodeAddress(address));
      origins.add(daemonSocketOrigin(address));
    }
    return [...origins];
  }
}
