// A stock x402 resource server (@x402/express) that settles through a provider's own facilitator,
// paid by the stock client (@x402/fetch with @x402/evm's exact scheme and a viem local account):
// proof that the provider's /x402/facilitator speaks x402's facilitator API. Prints one JSON line
// {status, body, paymentResponse} and exits 0 only when the paid call was answered 200 and its
// PAYMENT-RESPONSE reports a settled transaction.
//
//   CHAN_FACILITATOR_URL  the provider's facilitator, e.g. http://127.0.0.1:8080/x402/facilitator
//   CHAN_PAY_TO           the provider's wallet (the facilitator settles only payments to it)
//   CHAN_PAYER_KEY        the paying agent's private key (holds USDC; needs no gas)
//   CHAN_X402_PRICE       the route's price, default "$0.01" (USDC on Polygon, eip155:137)
//   CHAN_X402_MAX_TIMEOUT_SECONDS  the offer's maxTimeoutSeconds, default 300; the client signs
//                         validBefore = now + this, so a devnet whose clock was moved ahead needs more
import express from "express";
import { paymentMiddleware, x402ResourceServer } from "@x402/express";
import { ExactEvmScheme as ExactEvmServerScheme } from "@x402/evm/exact/server";
import { ExactEvmScheme } from "@x402/evm";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { wrapFetchWithPaymentFromConfig, decodePaymentResponseHeader } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";

const facilitatorUrl = required("CHAN_FACILITATOR_URL");
const payTo = required("CHAN_PAY_TO");
const payer = privateKeyToAccount(required("CHAN_PAYER_KEY"));
const price = process.env.CHAN_X402_PRICE || "$0.01";
const maxTimeoutSeconds = Number(process.env.CHAN_X402_MAX_TIMEOUT_SECONDS || "300");

function required(name) {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required`);
    process.exit(2);
  }
  return value;
}

const resourceServer = new x402ResourceServer(new HTTPFacilitatorClient({ url: facilitatorUrl }))
  .register("eip155:137", new ExactEvmServerScheme());
const app = express();
app.use(paymentMiddleware({
  "GET /paid": {
    accepts: { scheme: "exact", price, network: "eip155:137", payTo, maxTimeoutSeconds },
    description: "a paid answer of a stock x402 resource server",
  },
}, resourceServer));
app.get("/paid", (req, res) => res.json({ answer: "paid through the provider's facilitator" }));

const server = await new Promise((resolve) => {
  const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
});
let exitCode = 1;
try {
  const url = `http://127.0.0.1:${server.address().port}/paid`;
  const fetchWithPayment = wrapFetchWithPaymentFromConfig(fetch, {
    schemes: [{ network: "eip155:137", client: new ExactEvmScheme(payer) }],
  });
  const response = await fetchWithPayment(url, { method: "GET" });
  const header = response.headers.get("PAYMENT-RESPONSE");
  const paymentResponse = header ? decodePaymentResponseHeader(header) : null;
  const body = await response.text();
  console.log(JSON.stringify({ status: response.status, body, paymentResponse }));
  exitCode = response.status === 200 && paymentResponse?.success === true ? 0 : 1;
} catch (error) {
  console.log(JSON.stringify({ status: 0, error: String(error?.stack || error) }));
} finally {
  server.close();
}
process.exit(exitCode);
