// The directory area's service: the PSPs of the Pix network (it needs nothing).
import { DirectoryService } from './directory.service';

export function buildDirectoryService(): DirectoryService {
  return new DirectoryService();
}
