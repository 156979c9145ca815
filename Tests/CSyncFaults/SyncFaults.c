#include "CSyncFaults.h"

#include <pthread.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <string.h>

// Each file of the shim is the file of the VFS below it, followed in memory by that VFS's own.
typedef struct {
    sqlite3_file base;
    sqlite3_file *real;
    int watched;
} ShimFile;

static sqlite3_vfs *below;
static sqlite3_vfs shim;
static sqlite3_io_methods methods1, methods2, methods3;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char prefix[4096];
static atomic_int failing;
static atomic_int syncs;

static sqlite3_file *real(sqlite3_file *file) { return ((ShimFile *)file)->real; }

static int shimClose(sqlite3_file *file) {
    int code = real(file)->pMethods ? real(file)->pMethods->xClose(real(file)) : SQLITE_OK;
    file->pMethods = NULL;
    return code;
}
static int shimRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset) {
    return real(file)->pMethods->xRead(real(file), buffer, amount, offset);
}
static int shimWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset) {
    return real(file)->pMethods->xWrite(real(file), buffer, amount, offset);
}
static int shimTruncate(sqlite3_file *file, sqlite3_int64 size) {
    return real(file)->pMethods->xTruncate(real(file), size);
}
static int shimSync(sqlite3_file *file, int flags) {
    if (((ShimFile *)file)->watched) {
        atomic_fetch_add(&syncs, 1);
        if (atomic_load(&failing)) return SQLITE_IOERR_FSYNC;
    }
    return real(file)->pMethods->xSync(real(file), flags);
}
static int shimFileSize(sqlite3_file *file, sqlite3_int64 *size) {
    return real(file)->pMethods->xFileSize(real(file), size);
}
static int shimLock(sqlite3_file *file, int level) { return real(file)->pMethods->xLock(real(file), level); }
static int shimUnlock(sqlite3_file *file, int level) { return real(file)->pMethods->xUnlock(real(file), level); }
static int shimCheckReservedLock(sqlite3_file *file, int *out) {
    return real(file)->pMethods->xCheckReservedLock(real(file), out);
}
static int shimFileControl(sqlite3_file *file, int op, void *argument) {
    return real(file)->pMethods->xFileControl(real(file), op, argument);
}
static int shimSectorSize(sqlite3_file *file) { return real(file)->pMethods->xSectorSize(real(file)); }
static int shimDeviceCharacteristics(sqlite3_file *file) {
    return real(file)->pMethods->xDeviceCharacteristics(real(file));
}
static int shimShmMap(sqlite3_file *file, int page, int size, int extend, void volatile **out) {
    return real(file)->pMethods->xShmMap(real(file), page, size, extend, out);
}
static int shimShmLock(sqlite3_file *file, int offset, int n, int flags) {
    return real(file)->pMethods->xShmLock(real(file), offset, n, flags);
}
static void shimShmBarrier(sqlite3_file *file) { real(file)->pMethods->xShmBarrier(real(file)); }
static int shimShmUnmap(sqlite3_file *file, int delete) {
    return real(file)->pMethods->xShmUnmap(real(file), delete);
}
static int shimFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out) {
    return real(file)->pMethods->xFetch(real(file), offset, amount, out);
}
static int shimUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *page) {
    return real(file)->pMethods->xUnfetch(real(file), offset, page);
}

static int shimOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    (void)vfs;
    ShimFile *shimFile = (ShimFile *)file;
    shimFile->real = (sqlite3_file *)&shimFile[1];
    memset(shimFile->real, 0, below->szOsFile);
    pthread_mutex_lock(&lock);
    shimFile->watched = name != NULL && prefix[0] != 0 && strncmp(name, prefix, strlen(prefix)) == 0;
    pthread_mutex_unlock(&lock);
    int code = below->xOpen(below, name, shimFile->real, flags, outFlags);
    if (shimFile->real->pMethods == NULL) {
        file->pMethods = NULL;
        return code;
    }
    int version = shimFile->real->pMethods->iVersion;
    file->pMethods = version >= 3 ? &methods3 : version == 2 ? &methods2 : &methods1;
    return code;
}

static void fill(sqlite3_io_methods *methods, int version) {
    methods->iVersion = version;
    methods->xClose = shimClose;
    methods->xRead = shimRead;
    methods->xWrite = shimWrite;
    methods->xTruncate = shimTruncate;
    methods->xSync = shimSync;
    methods->xFileSize = shimFileSize;
    methods->xLock = shimLock;
    methods->xUnlock = shimUnlock;
    methods->xCheckReservedLock = shimCheckReservedLock;
    methods->xFileControl = shimFileControl;
    methods->xSectorSize = shimSectorSize;
    methods->xDeviceCharacteristics = shimDeviceCharacteristics;
    if (version >= 2) {
        methods->xShmMap = shimShmMap;
        methods->xShmLock = shimShmLock;
        methods->xShmBarrier = shimShmBarrier;
        methods->xShmUnmap = shimShmUnmap;
    }
    if (version >= 3) {
        methods->xFetch = shimFetch;
        methods->xUnfetch = shimUnfetch;
    }
}

void playerform_sync_faults_install(void) {
    pthread_mutex_lock(&lock);
    if (below == NULL) {
        below = sqlite3_vfs_find(NULL);
        shim = *below;
        shim.zName = "playerform-sync-faults";
        shim.szOsFile = (int)sizeof(ShimFile) + below->szOsFile;
        shim.xOpen = shimOpen;
        shim.pNext = NULL;
        fill(&methods1, 1);
        fill(&methods2, 2);
        fill(&methods3, 3);
        sqlite3_vfs_register(&shim, 1);
    }
    pthread_mutex_unlock(&lock);
}

void playerform_sync_faults_watch(const char *watched) {
    pthread_mutex_lock(&lock);
    if (watched == NULL) {
        prefix[0] = 0;
    } else {
        strncpy(prefix, watched, sizeof prefix - 1);
        prefix[sizeof prefix - 1] = 0;
    }
    pthread_mutex_unlock(&lock);
}

void playerform_sync_faults_fail(int on) { atomic_store(&failing, on); }

int playerform_sync_faults_count(void) { return atomic_load(&syncs); }
