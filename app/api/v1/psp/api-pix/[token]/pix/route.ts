import { pspWebhook } from "../handler";

export const POST = pspWebhook;
