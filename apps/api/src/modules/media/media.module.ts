import { Module } from '@nestjs/common';
import { PhotosModule } from '../photos/photos.module';
import { MediaController } from './media.controller';

/** `/media`: the files of the local photo store, served without a key. */
@Module({
  imports: [PhotosModule],
  controllers: [MediaController],
})
export class MediaModule {}
