// The CSV helpers live in the kernel (services build CSV too); re-exported for the dashboard.
export * from "@/lib/core/csv";
