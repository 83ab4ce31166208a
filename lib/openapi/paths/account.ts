/** Operations of the Account tag and of the Service tag (health, this reference). */
import { z } from "zod";
import { CompanySchema, envelopeOf, HealthSchema } from "../components";
import { apiGroup } from "./group";

export const ACCOUNT = apiGroup({ name: "Account", description: "Your account." }, [
  {
    method: "get",
    path: "/api/v1/company",
    operationId: "getCompany",
    summary: "Your account",
    auth: "secretKey",
    responses: { 200: { description: "The account", schema: envelopeOf(CompanySchema, { id: "CompanyResponse", status: 200 }) } },
  },
]);

export const SERVICE = apiGroup({ name: "Service", description: "Health and this reference." }, [
  {
    method: "get",
    path: "/api/v1/health",
    operationId: "getHealth",
    summary: "Health check",
    description: "For load balancers: 200 when the database answers, 503 when it does not. Not wrapped in the envelope.",
    auth: "none",
    responses: {
      200: { description: "Healthy", schema: HealthSchema, example: { status: "ok", database: "postgres" } },
      503: { description: "The database does not answer", schema: HealthSchema, example: { status: "degraded", database: "postgres" } },
    },
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This reference (OpenAPI 3.1)",
    description: "Generated from the same zod schemas that validate the requests. A readable rendering is at /docs.",
    auth: "none",
    responses: { 200: { description: "The OpenAPI 3.1 document", schema: z.record(z.string(), z.unknown()) } },
  },
]);
