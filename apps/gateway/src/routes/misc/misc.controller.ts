import { Controller, Get, Inject } from '@nestjs/common';
import { PublicRoute } from '../../auth/policy.decorators.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../../config/gateway-settings.js';
import { CAIRN_VERSION } from '../../version.js';

/** Gitea's `GeneralAPISettings`. */
export interface GeneralApiSettingsDto {
  max_response_items: number;
  default_paging_num: number;
  default_git_trees_per_page: number;
  default_max_blob_size: number;
  default_max_response_size: number;
}

/** Instance information that needs no authentication. */
@Controller()
export class MiscController {
  constructor(@Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings) {}

  /** `GET /version` — the server version. */
  @Get('version')
  @PublicRoute()
  version(): { version: string } {
    return { version: CAIRN_VERSION };
  }

  /** `GET /settings/api` — the instance's API limits. */
  @Get('settings/api')
  @PublicRoute()
  apiSettings(): GeneralApiSettingsDto {
    return {
      max_response_items: this.settings.maxResponseItems,
      default_paging_num: this.settings.defaultPagingNum,
      default_git_trees_per_page: this.settings.defaultGitTreesPerPage,
      default_max_blob_size: this.settings.defaultMaxBlobSize,
      default_max_response_size: this.settings.defaultMaxResponseSize,
    };
  }
}
