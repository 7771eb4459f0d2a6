package org.chunkcdm.ncstream.iosp;

/**
 * {@link NcStreamFileIosp} plus a count of its open file handles, for the contract's file-cache check (release()
 * must close them). Nothing else differs; netcdf-java instantiates it by name, hence public.
 */
public class CountingNcStreamIosp extends NcStreamFileIosp {
  /** Open file handles of this dataset. */
  public int openCount() {
    return files().openCount();
  }
}
