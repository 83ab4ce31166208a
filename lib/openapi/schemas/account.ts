/** Response schema of the Account aggregate. */
import { z } from "zod";
import { isoDate } from "./common";

export const CompanySchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    document: z.string(),
    documentType: z.enum(["cpf", "cnpj"]),
    email: z.string(),
    pixKey: z.string().nullable(),
    pixKeyType: z.string().nullable(),
    publicKey: z.string().meta({ description: "pk_test_... (safe to expose in browsers)" }),
    feePlan: z
      .object({
        pix: z.object({ percentBp: z.number().int(), fixed: z.number().int() }),
        card: z.object({ percentBp: z.number().int(), fixed: z.number().int(), perExtraInstallmentBp: z.number().int() }),
        boleto: z.object({ percentBp: z.number().int(), fixed: z.number().int() }),
        cashOut: z.object({ fixed: z.number().int() }),
      })
      .meta({ description: "Rates in basis points (399 = 3.99%), fixed parts in centavos" }),
    createdAt: isoDate("Creation time"),
  })
  .meta({ id: "Company" });
