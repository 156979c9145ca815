// A SQLite VFS for specs that fails the syncs of chosen files: the one way a spec can observe
// that a store acknowledges a write only after it reached the disk.
#ifndef PLAYERFORM_CSYNCFAULTS_H
#define PLAYERFORM_CSYNCFAULTS_H

/// Makes the shim SQLite's default VFS, once; it passes every call to the VFS that was the
/// default, except the syncs of files under the watched folder.
void playerform_sync_faults_install(void);

/// Watches the files whose path starts with `prefix` (opened from now on); NULL watches none.
void playerform_sync_faults_watch(const char *prefix);

/// While `failing` is not 0, each sync of a watched file fails with SQLITE_IOERR_FSYNC.
void playerform_sync_faults_fail(int failing);

/// How many syncs of watched files were asked for so far, failed or not.
int playerform_sync_faults_count(void);

#endif
