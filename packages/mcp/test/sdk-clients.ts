import {
  Client as V2Client,
  StreamableHTTPClientTransport as V2Http,
} from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** What the tests ask of either SDK's client. */
export type AnyClient = Pick<V2Client, 'listTools' | 'callTool' | 'close'>;

/**
 * The official SDK clients connected to `url`: v2 in its default (2025-11-25) mode, v2 pinned to
 * 2026-07-28, and v1 (2025-11-25).
 */
export async function connectSdkClients(
  url: string,
): Promise<{ legacy: V2Client; modern: V2Client; v1: V1Client }> {
  const legacy = new V2Client({ name: 'v2-legacy', version: '1' });
  await legacy.connect(new V2Http(new URL(url)));
  const modern = new V2Client(
    { name: 'v2-modern', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await modern.connect(new V2Http(new URL(url)));
  const v1 = new V1Client({ name: 'v1', version: '1' });
  await v1.connect(new V1Http(new URL(url)));
  return { legacy, modern, v1 };
}
