export { makeTestPki, type PemPair, type TestPki } from "./certs";
export { dynamicBrCode } from "./brcode";
export {
  startApiPixPsp,
  type ApiPixPsp,
  type PayOptions,
  type PspCob,
  type PspOptions,
  type PspPix,
  type RequestRecord,
  type TokenGrant,
  type WebhookDelivery,
} from "./server";
export { localPspSettings } from "./settings";
