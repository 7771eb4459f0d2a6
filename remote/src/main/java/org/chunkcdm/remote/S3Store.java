package org.chunkcdm.remote;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.chunkcdm.io.Bounds;
import org.chunkcdm.io.remote.ObjectChangedException;
import org.chunkcdm.io.remote.ObjectInfo;
import org.chunkcdm.io.remote.ObjectStore;
import org.chunkcdm.io.remote.RemoteLocation;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * One S3 bucket through the AWS SDK for Java v2: ranged GetObject (with {@code If-Match} for the version a
 * dataset pinned), HeadObject, ListObjectsV2 with delimiter '/'. The SDK signs and resolves endpoint, region and
 * credentials ({@link S3Clients}); its own retries are off, {@link Requests} retries and times every request.
 */
final class S3Store implements ObjectStore {
  private final S3Client s3;
  private final RemoteLocation.Root root;
  private final String bucket;

  S3Store(S3Client s3, RemoteLocation.Root root) {
    this.s3 = s3;
    this.root = root;
    this.bucket = root.bucket();
  }

  @Override
  public String describe(String key) {
    return root.format(key);
  }

  private static ObjectInfo info(Long size, String etag, Instant lastModified) {
    return new ObjectInfo(size == null ? -1 : size, etag, lastModified == null ? 0 : lastModified.toEpochMilli());
  }

  /** The object's total size from a 206's Content-Range ("bytes a-b/total"), else the body's length. */
  private static long total(GetObjectResponse r) {
    String cr = r.contentRange();
    if (cr != null) {
      int slash = cr.lastIndexOf('/');
      if (slash >= 0) {
        try {
          return Long.parseLong(cr.substring(slash + 1).trim());
        } catch (NumberFormatException e) {
          // fall through
        }
      }
    }
    return r.contentLength() == null ? -1 : r.contentLength();
  }

  /** An SDK failure as the exception the callers expect: missing, changed, worth another attempt, or final. */
  private IOException map(String key, SdkException e, String ifMatch) {
    if (e instanceof AwsServiceException) {
      AwsServiceException a = (AwsServiceException) e;
      int s = a.statusCode();
      String code = a.awsErrorDetails() == null ? null : a.awsErrorDetails().errorCode();
      if (s == 404) {
        return new NoSuchFileException(describe(key));
      }
      if (s == 412) {
        return new ObjectChangedException(describe(key) + ": the store no longer has the version " + ifMatch + " of this object");
      }
      if (Requests.transientStatus(s) || "SlowDown".equals(code) || "RequestTimeout".equals(code) || "InternalError".equals(code)) {
        return new Requests.Transient("S3 " + s + (code == null ? "" : " " + code), e);
      }
      if (s == 403) {
        return new IOException(describe(key) + ": access denied (S3 403" + (code == null ? "" : " " + code)
            + "); check the credentials and the bucket's policy");
      }
      return new IOException(describe(key) + ": S3 " + s + (code == null ? "" : " " + code));
    }
    if (e instanceof SdkClientException) {
      if (Requests.permanent(e)) {
        return new IOException(describe(key) + ": " + rootMessage(e), e);
      }
      return new Requests.Transient("request failed: " + rootMessage(e), e);
    }
    return new IOException(describe(key) + ": " + rootMessage(e), e);
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m;
  }

  private GetObjectRequest get(String key, String range, String ifMatch) {
    GetObjectRequest.Builder b = GetObjectRequest.builder().bucket(bucket).key(key);
    if (range != null) {
      b.range(range);
    }
    if (ifMatch != null) {
      b.ifMatch(ifMatch);
    }
    return b.build();
  }

  /** GetObject; null for 416 (a range at or past the end, or any range of an empty object). */
  private ResponseInputStream<GetObjectResponse> getObject(String key, GetObjectRequest req, String ifMatch) throws IOException {
    try {
      return s3.getObject(req);
    } catch (SdkException e) {
      if (e instanceof AwsServiceException && ((AwsServiceException) e).statusCode() == 416) {
        return null;
      }
      throw map(key, e, ifMatch);
    }
  }

  /** The object's info for a 416 answer: the object exists (else NoSuchFileException). */
  private ObjectInfo existing(String key) throws IOException {
    ObjectInfo h = head(key);
    if (h == null) {
      throw new NoSuchFileException(describe(key));
    }
    return h;
  }

  @Override
  public Read read(String key, long pos, byte[] dst, int off, int len, String ifMatch) throws IOException {
    if (len == 0) {
      ObjectInfo h = head(key);
      if (h == null) {
        throw new NoSuchFileException(describe(key));
      }
      return new Read(h, 0);
    }
    GetObjectRequest req = get(key, "bytes=" + pos + "-" + (pos + len - 1), ifMatch);
    return Requests.run(describe(key), () -> {
      ResponseInputStream<GetObjectResponse> in = getObject(key, req, ifMatch);
      if (in == null) {
        return new Read(existing(key), 0); // at or past the end
      }
      try (in; Requests.Deadline d = new Requests.Deadline(in::abort)) {
        GetObjectResponse r = in.response();
        ObjectInfo i = info(total(r), r.eTag(), r.lastModified());
        Requests.checkVersion(describe(key), ifMatch, i);
        int want = (int) Math.max(0, Math.min(len, i.size() - pos));
        Requests.body(() -> in, dst, off, want, d);
        return new Read(i, want);
      }
    });
  }

  @Override
  public Whole readStart(String key, long maxBytes, String ifMatch) throws IOException {
    GetObjectRequest req = get(key, maxBytes < Long.MAX_VALUE / 2 ? "bytes=0-" + (Math.max(1, maxBytes) - 1) : null, ifMatch);
    return Requests.run(describe(key), () -> {
      ResponseInputStream<GetObjectResponse> in = getObject(key, req, ifMatch);
      if (in == null) {
        return new Whole(existing(key), new byte[0]); // an empty object
      }
      try (in; Requests.Deadline d = new Requests.Deadline(in::abort)) {
        GetObjectResponse r = in.response();
        ObjectInfo i = info(total(r), r.eTag(), r.lastModified());
        Requests.checkVersion(describe(key), ifMatch, i);
        long want = r.contentLength() == null ? -1 : r.contentLength();
        if (want < 0) {
          throw new IOException(describe(key) + ": the answer has no Content-Length");
        }
        want = Math.min(want, maxBytes);
        Bounds.checkAllocation(want, describe(key));
        byte[] b = new byte[(int) want];
        Requests.body(() -> in, b, 0, b.length, d);
        if (want < (r.contentLength() == null ? 0 : r.contentLength())) {
          in.abort(); // the rest is not wanted
        }
        return new Whole(i, b);
      }
    });
  }

  @Override
  public ObjectInfo head(String key) throws IOException {
    return Requests.run(describe(key), () -> {
      try {
        HeadObjectResponse r = s3.headObject(b -> b.bucket(bucket).key(key));
        return info(r.contentLength(), r.eTag(), r.lastModified());
      } catch (SdkException e) {
        IOException x = map(key, e, null);
        if (x instanceof NoSuchFileException) {
          return null;
        }
        throw x;
      }
    });
  }

  @Override
  public Listing list(String prefix, String next, int maxKeys) throws IOException {
    ListObjectsV2Request.Builder b = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix).delimiter("/")
        .maxKeys(Math.max(1, Math.min(1000, maxKeys)));
    if (next != null) {
      b.continuationToken(next);
    }
    ListObjectsV2Request req = b.build();
    return Requests.run(describe(prefix), () -> {
      ListObjectsV2Response r;
      try {
        r = s3.listObjectsV2(req);
      } catch (SdkException e) {
        IOException x = map(prefix, e, null);
        if (x instanceof NoSuchFileException) { // no such bucket
          throw new NoSuchFileException(root.toString(), null, "no such bucket");
        }
        throw x;
      }
      List<Child> objects = new ArrayList<>();
      for (S3Object o : r.contents()) {
        String name = o.key().substring(Math.min(prefix.length(), o.key().length()));
        if (!name.isEmpty() && o.key().startsWith(prefix)) { // not the prefix's own "directory marker"
          objects.add(new Child(name, info(o.size(), o.eTag(), o.lastModified())));
        }
      }
      List<String> prefixes = new ArrayList<>();
      for (CommonPrefix p : r.commonPrefixes()) {
        String name = p.prefix().substring(Math.min(prefix.length(), p.prefix().length()));
        name = name.endsWith("/") ? name.substring(0, name.length() - 1) : name;
        if (!name.isEmpty()) {
          prefixes.add(name);
        }
      }
      return new Listing(objects, prefixes, Boolean.TRUE.equals(r.isTruncated()) ? r.nextContinuationToken() : null);
    });
  }
}
