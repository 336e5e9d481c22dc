// The shapes of the API answers the pages read (docs/api.md). Where the service's OpenAPI document
// describes an answer the type is the generated one (api-types.ts, from openapi.json); the types
// written here by hand are the answers whose generated schema leaves every member optional (the
// marketplace's, signing, claimables, replay), until the service marks their required members.
import type { components } from './api-types';


export interface Pricing {
  inputPer1kTokens: string;
  outputPer1kTokens: string;
  perRequest?: string;
  currency?: string;
  decimals?: number;
}

export interface Model {
  id: string;
  name?: string;
  pricing: Pricing;
}

export interface DirectoryProvider {
  id: string;
  name: string;
  description: string;
  apiUrl: string;
  providerAddress: string;
  category: string;
  additionalCategories?: string[];
  tier: string;
  contact?: string | null;
  docsUrl?: string | null;
  chainId: number;
  registeredAt: string;
  approval: { state: 'pending' | 'approved' | 'suspended'; changedAt?: string | null; reason?: string | null };
  score: number | null;
  status: {
    online: boolean;
    since?: string | null;
    lastChecked?: string | null;
    latencyMs?: number | null;
    consecutiveFailures: number;
    lastError?: string | null;
    /** Its /v1/docs and the 402 of its chat endpoint answer as agents need them; `online` needs it too. */
    inferenceOnline: boolean;
    inferenceError?: string | null;
  };
  models: Model[];
  history: { at: string; event: string; detail?: string | null }[];
  feedback?: ProviderFeedback;
  telemetry?: ProviderTelemetry;
  /** 0 to 1 from feedback, telemetry and health checks (docs/api.md, Quality score); null while unknown. */
  qualityScore?: number | null;
  logoUrl?: string | null;
  website?: string | null;
  supportsStreaming?: boolean | null;
}

/** Agents' clients' reports of paid requests over the rolling window (POST /api/telemetry). */
export interface ProviderTelemetry {
  window: string;
  requests: number;
  failures: number;
  failureRate: number | null;
  failuresByStatus: Record<string, number>;
  latencyMs: { p50: number | null; p95: number | null };
  /** USDC base units, a decimal string of an integer. */
  paidVolume: string;
}

/** Agents' reports on a provider over the rolling window (POST /api/feedback). */
export interface ProviderFeedback {
  window: string;
  reports: number;
  successes: number;
  failures: number;
  successRate: number | null;
  failureReasons: Record<string, number>;
}

export interface Directory {
  count: number;
  providers: DirectoryProvider[];
}

export interface Signing {
  eip712Domain: { name: string; version: string; chainId: number; verifyingContract: string };
  contracts: { channel: string; usdc: string };
  [key: string]: unknown;
}

/** The schemas of the service's OpenAPI document (openapi.json), as generated into api-types.ts. */
type Schemas = components['schemas'];

/** GET /api/channels/{channelId}: a channel's balance, in the view its caller may have. */
export type Channel = Schemas['ChannelResponse'];

/** GET /api/channels/{channelId}/events: one recorded event; `type` tells the fields of its `payload`. */
export type ChannelEvent = Schemas['ChannelEvent'];
export type ChannelEventType = ChannelEvent['type'];

/** GET /api/explorer/summary: the network's channels from the chain. */
export type ExplorerSummary = Schemas['ExplorerSummary'];
export type ExplorerActivity = Schemas['Activity'];

/** GET /api/provider/dashboard, on a provider's own server: its earnings, claims, channels at risk, revenue per model. */
export type ProviderDashboard = Schemas['ProviderDashboard'];

export interface Claimable {
  provider: string;
  totals: {
    channels: number; openChannels: number; expiredChannels: number; claimable: string; claimed: string;
    feesPaid: string; atRisk: string; atRiskChannels: number; lastActivity?: string | null;
  };
  atRiskWindowSeconds: number;
  claims: {
    channelId: string; amount: string; nonce: string; signature: string; claimable: string; netClaimable: string;
    expiry: string; expiryEpochSeconds: number; status: string; atRisk: boolean;
  }[];
  nextCursor?: string | null;
}

export interface ReplayStatus {
  state: 'IDLE' | 'STOPPING' | 'CHECKSUMMING' | 'REPLAYING' | 'VERIFYING' | 'COMPLETED' | 'FAILED';
  startedAt?: string;
  finishedAt?: string;
  processed?: number;
  head?: number;
  eventsPerSecond?: number;
  before?: { position: number; checksum: unknown };
  after?: { position: number; checksum: unknown };
  comparable?: boolean;
  matches?: boolean;
  error?: string;
}
