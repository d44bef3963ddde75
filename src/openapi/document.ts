import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { GATEWAY_PREFIX } from '../common/routes';

export const OPENAPI_JSON_PATH = `${GATEWAY_PREFIX}/openapi.json`;
export const OPENAPI_UI_PATH = `${GATEWAY_PREFIX}/docs`;

/** The OpenAPI description of the gateway and management APIs, built from the controllers' decorators. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Action Gateway')
    .setDescription(
      'Tenant-scoped custom actions for a conversational-flow platform, run by signed webhooks. ' +
        'Gateway endpoints take `Authorization: Bearer <jwt_token>` from the token exchange; the management API ' +
        'takes `Authorization: Bearer <ADMIN_API_KEY>`, or the Gateway Management console\'s session cookie (with ' +
        '`X-CSRF-Token` on POST, PUT, PATCH and DELETE). Every error body is `{"error": "...", "details"?: "..."}`.',
    )
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'ADMIN_API_KEY' }, 'admin')
    .addCookieAuth('agw_console_session', { type: 'apiKey', in: 'cookie', description: 'A console session (POST /api/v1/admin/session or a portal link)' }, 'console')
    .build();
  return SwaggerModule.createDocument(app, config);
}

/** Serves the description as JSON and as Swagger UI. */
export function serveOpenApi(app: INestApplication): void {
  SwaggerModule.setup(OPENAPI_UI_PATH, app, () => buildOpenApiDocument(app), { jsonDocumentUrl: OPENAPI_JSON_PATH, ui: true });
}
