// The shapes of the API answers the pages read (docs/api.md), as the service's OpenAPI document
// describes them: the types generated from openapi.json into api-types.ts, under the names the
// pages use. A member the service always writes is required there, so a renamed or removed Java
// member fails the build here. Amounts are decimal strings of base units, never numbers.
import type { components } from './api-types';

/** The schemas of the service's OpenAPI document (openapi.json), as generated into api-types.ts. */
type Schemas = components['schemas'];

/** GET /api/directory/providers: every registered provider, listed or not. */
export type Directory = Schemas['Directory'];
export type DirectoryProvider = Schemas['DirectoryProvider'];
export type Model = Schemas['Model'];
export type Pricing = Schemas['Pricing'];
/** A model's whole price: its kind (tokens, flat, per-unit) and its amounts in base units. */
export type Price = Schemas['Price'];
/** A provider's GET /v1/pricing: each model's two numbers, whole price and example request body. */
export type PublishedPrices = Schemas['PublishedPrices'];

/** Agents' clients' reports of paid requests over the rolling window (POST /api/telemetry). */
export type ProviderTelemetry = Schemas['DirectoryTelemetry'];
/** The same figures of one part of them (the unverified reports). */
export type TelemetryCounts = Schemas['DirectoryTelemetryCounts'];

/** Agents' reports on a provider over the rolling window (POST /api/feedback). */
export type ProviderFeedback = Schemas['DirectoryFeedback'];
export type FeedbackCounts = Schemas['DirectoryFeedbackCounts'];

/** GET /api/directory/providers/{providerId}/latency: the health checks' latency samples. */
export type LatencyHistory = Schemas['LatencyHistory'];

/** POST /api/directory/providers: what a registration found and recorded. */
export type RegistrationOutcome = Schemas['RegistrationOutcome'];

/** GET /api/skills: every skill at its current version. */
export type SkillList = Schemas['SkillList'];
export type SkillSummary = Schemas['SkillSummary'];

/** GET /api/skills/{slug}: one skill as published, its version first. */
export type SkillDocument = Schemas['SkillDocument'];
export type SkillStep = Schemas['SkillStep'];

/** GET /api/chan/signing: what a client needs to sign vouchers and close authorizations. */
export type Signing = Schemas['SigningInfo'];

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

/** GET /api/providers/{address}/claimable: a provider's vouchers to claim. */
export type Claimable = Schemas['ClaimableResponse'];

/** GET /api/admin/replay: where a read-model replay stands. */
export type ReplayStatus = Schemas['ReplayStatus'];
export type ReadModelChecksum = Schemas['ReadModelChecksum'];

/** GET /api/admin/health: the chain listener's and the gas station's health with their details. */
export type OperatorHealth = Schemas['OperatorHealth'];

/** GET /api/web/settings: what the pages need from the deployment's settings. */
export type WebSettings = Schemas['WebSettings'];
