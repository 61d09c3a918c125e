import type { Paginated } from '../common/pagination.js';
import type { RpcPair } from '../rpc-contract.js';
import type { RepoScopedRequest } from './repo-access.dto.js';
import type {
  AssetDownloadReply, AssetDownloadRequest, AssetLocateReply, AssetLocateRequest, AttachmentDto, CreateReleaseRequest,
  EditReleaseAssetRequest, EditReleaseRequest, ListReleasesRequest, ReleaseAssetRequest, ReleaseDto, ReleaseIdRequest,
  ReleaseTagRequest,
} from './releases.dto.js';
import type { ReleaseSubjects } from './releases.subjects.js';

export interface ReleaseRpc {
  [ReleaseSubjects.list]: RpcPair<ListReleasesRequest, Paginated<ReleaseDto>>;
  [ReleaseSubjects.get]: RpcPair<ReleaseIdRequest, ReleaseDto>;
  [ReleaseSubjects.getByTag]: RpcPair<ReleaseTagRequest, ReleaseDto>;
  [ReleaseSubjects.latest]: RpcPair<RepoScopedRequest, ReleaseDto>;
  [ReleaseSubjects.create]: RpcPair<CreateReleaseRequest, ReleaseDto>;
  [ReleaseSubjects.edit]: RpcPair<EditReleaseRequest, ReleaseDto>;
  [ReleaseSubjects.delete]: RpcPair<ReleaseIdRequest, null>;
  [ReleaseSubjects.deleteByTag]: RpcPair<ReleaseTagRequest, null>;
  [ReleaseSubjects.assetList]: RpcPair<ReleaseIdRequest, AttachmentDto[]>;
  [ReleaseSubjects.assetGet]: RpcPair<ReleaseAssetRequest, AttachmentDto>;
  [ReleaseSubjects.assetEdit]: RpcPair<EditReleaseAssetRequest, AttachmentDto>;
  [ReleaseSubjects.assetDelete]: RpcPair<ReleaseAssetRequest, null>;
  [ReleaseSubjects.assetDownload]: RpcPair<AssetDownloadRequest, AssetDownloadReply>;
  [ReleaseSubjects.assetLocate]: RpcPair<AssetLocateRequest, AssetLocateReply>;
}
