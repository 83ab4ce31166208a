/**
 * Efí's Pix Envio on the merchant's API Pix session (same certificate, client id and secret, same
 * cached token and connections' rules): see efi-schemas.ts for the contract.
 */
import { PspHttpClient } from "@/lib/processors/api-pix/http-client";
import { idEnvioSchema, pixEnviadoSchema, pixEnvioRespostaSchema, pixEnvioSolicitadoSchema, type PixEnviado, type PixEnvioResposta, type PixEnvioSolicitado } from "./efi-schemas";

export class EfiPixEnvioClient extends PspHttpClient {
  /** `PUT /v3/gn/pix/{idEnvio}`: sends the Pix (or answers 409 `id_envio_duplicado` if that id was used). */
  async sendPix(idEnvio: string, body: PixEnvioSolicitado): Promise<PixEnvioResposta> {
    const op = "PUT /v3/gn/pix/{idEnvio}";
    this.checkInput(op, idEnvioSchema, idEnvio, "idEnvio");
    this.checkInput(op, pixEnvioSolicitadoSchema, body, "corpo");
    const res = await this.call({ method: "PUT", template: "/v3/gn/pix/{idEnvio}", path: `/v3/gn/pix/${idEnvio}`, fromHost: true, body, schema: pixEnvioRespostaSchema });
    if (res.idEnvio !== idEnvio) throw this.invalidResponse(op, "idEnvio da resposta difere do pedido");
    return res;
  }

  /** `GET /v2/gn/pix/enviados/id-envio/{idEnvio}`. */
  async getSent(idEnvio: string): Promise<PixEnviado> {
    const op = "GET /v2/gn/pix/enviados/id-envio/{idEnvio}";
    this.checkInput(op, idEnvioSchema, idEnvio, "idEnvio");
    const res = await this.call({ method: "GET", template: "/v2/gn/pix/enviados/id-envio/{idEnvio}", path: `/v2/gn/pix/enviados/id-envio/${idEnvio}`, fromHost: true, schema: pixEnviadoSchema });
    if (res.idEnvio !== idEnvio) throw this.invalidResponse(op, "idEnvio da resposta difere do pedido");
    return res;
  }
}
