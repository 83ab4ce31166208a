import type { TransactionRow } from "@/lib/core/rows";
import { cardView } from "@/lib/core/card-view";
import { boletoUrlOf, secureUrlOf } from "@/lib/core/public-urls";

export type { TransactionRow };

export { boletoUrlOf, cardView, secureUrlOf };
export { transactionResource, v1TransactionResource, type TransactionResource } from "@/lib/core/transaction-resource";
