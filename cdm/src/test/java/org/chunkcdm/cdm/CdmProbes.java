package org.chunkcdm.cdm;

/** Test-only switches of the CDM adapter for tests in other modules. */
public final class CdmProbes {
  private CdmProbes() {}

  /** Sets the piece size of streamed sections and returns the one before. */
  public static long setStreamPieceBytes(long bytes) {
    long old = ChunkedIosp.pieceBytes();
    ChunkedIosp.setPieceBytes(bytes);
    return old;
  }
}
