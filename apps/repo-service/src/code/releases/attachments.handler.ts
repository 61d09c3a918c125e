import { Controller } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { RpcHandler } from '@cairn/platform';
import {
  AssetDownloadRequest, AssetLocateRequest, EditReleaseAssetRequest, ReleaseAssetRequest, ReleaseIdRequest, ReleaseSubjects,
  type AssetDownloadReply, type AssetLocateReply, type AttachmentDto,
} from '@cairn/contracts';
import { AttachmentsService } from './attachments.service.js';

/** Release attachments' metadata (the bytes go over the internal HTTP endpoint). */
@Controller()
export class AttachmentsHandler {
  constructor(private readonly attachments: AttachmentsService) {}

  @RpcHandler(ReleaseSubjects.assetList)
  list(@Payload() req: ReleaseIdRequest): Promise<AttachmentDto[]> {
    return this.attachments.list(req);
  }

  @RpcHandler(ReleaseSubjects.assetGet)
  get(@Payload() req: ReleaseAssetRequest): Promise<AttachmentDto> {
    return this.attachments.get(req);
  }

  @RpcHandler(ReleaseSubjects.assetEdit)
  edit(@Payload() req: EditReleaseAssetRequest): Promise<AttachmentDto> {
    return this.attachments.edit(req);
  }

  @RpcHandler(ReleaseSubjects.assetDelete)
  delete(@Payload() req: ReleaseAssetRequest): Promise<null> {
    return this.attachments.delete(req);
  }

  @RpcHandler(ReleaseSubjects.assetDownload)
  download(@Payload() req: AssetDownloadRequest): Promise<AssetDownloadReply> {
    return this.attachments.download(req);
  }

  @RpcHandler(ReleaseSubjects.assetLocate)
  locate(@Payload() req: AssetLocateRequest): Promise<AssetLocateReply> {
    return this.attachments.locate(req);
  }
}
