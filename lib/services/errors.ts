// The error type every layer throws lives in the kernel (lib/core/errors.ts).
export * from "@/lib/core/errors";
