package org.chunkcdm.fiji.bench;

import ij.ImagePlus;
import java.util.Locale;
import org.chunkcdm.fiji.ij.ChunkcdmImageJ;
import org.chunkcdm.io.remote.RemoteStats;

/**
 * The first plane of a remote volume in ImageJ (bench/run-remote.sh, never in verify): seconds from
 * {@code ChunkcdmImageJ.openImage(url, variable)} (the virtual stack a macro or the Path field opens) to the first
 * plane's pixels, then the next plane, with the requests each took.
 */
public final class RemotePlaneBench {
  private RemotePlaneBench() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    String var = args[1];
    long t0 = System.nanoTime();
    ImagePlus imp = ChunkcdmImageJ.openImage(url, var, null, null, true);
    long t1 = System.nanoTime();
    long openReq = RemoteStats.REQUESTS.sum();
    imp.getStack().getProcessor(1).getPixels();
    long t2 = System.nanoTime();
    long firstReq = RemoteStats.REQUESTS.sum() - openReq;
    imp.getStack().getProcessor(2).getPixels();
    long t3 = System.nanoTime();
    System.out.printf(Locale.ROOT, "| %s | %d x %d x %d planes | %.2f s (%d requests) | %.2f s (%d requests) | %.2f s |%n",
        url, imp.getWidth(), imp.getHeight(), imp.getStackSize(), (t1 - t0) / 1e9, openReq, (t2 - t0) / 1e9,
        openReq + firstReq, (t3 - t2) / 1e9);
  }
}
