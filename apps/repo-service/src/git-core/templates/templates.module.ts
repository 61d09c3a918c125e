import { Module } from '@nestjs/common';
import { TemplateCatalogue } from './template-catalogue.js';
import { TemplatesHandler } from './templates.handler.js';

/** The `.gitignore` and licence templates, read once at start; repository creation (RepositoriesModule) commits them. */
@Module({
  controllers: [TemplatesHandler],
  providers: [{ provide: TemplateCatalogue, useFactory: () => new TemplateCatalogue() }],
  exports: [TemplateCatalogue],
})
export class TemplatesModule {}
