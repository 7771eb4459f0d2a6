package org.chunkcdm.remote;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.chunkcdm.io.remote.RemoteLocation;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.profiles.ProfileFileSystemSetting;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * Builds the S3 client of a location, the way the AWS tools do:
 * <ul>
 *   <li>endpoint: the location's ({@code cdms3://host:port/...}), else {@code AWS_ENDPOINT_URL_S3} /
 *       {@code AWS_ENDPOINT_URL} (environment), {@code aws.endpointUrlS3} / {@code aws.endpointUrl} (system
 *       properties) or the profile's {@code endpoint_url}, else AWS itself. Any endpoint but AWS's is addressed
 *       path-style ({@code https://host/bucket/key}), as S3-compatible servers expect;
 *   <li>region: the AWS region chain ({@code AWS_REGION}, {@code aws.region}, the profile), else
 *       {@code us-east-1}; on AWS, buckets of other regions are followed;
 *   <li>credentials: the profile the location names ({@code cdms3://profile@host/...}), else the AWS default
 *       chain (system properties {@code aws.accessKeyId}/{@code aws.secretAccessKey}, environment, web identity,
 *       the {@code AWS_PROFILE} profile of {@code ~/.aws/credentials} and {@code ~/.aws/config}, container and
 *       instance roles). When none is found, requests go unsigned (public buckets); {@code -Dchunkcdm.s3.anonymous=true}
 *       sends them unsigned always.
 * </ul>
 */
final class S3Clients {
  private S3Clients() {}

  static S3Client build(RemoteLocation.Root root) {
    return build(root, null);
  }

  /** As {@link #build(RemoteLocation.Root)}, with {@code endpoint} instead of the location's (tests: a proxy). */
  static S3Client build(RemoteLocation.Root root, URI endpointOverride) {
    int t = Requests.timeoutMillis();
    S3ClientBuilder b = S3Client.builder()
        .httpClient(UrlConnectionHttpClient.builder()
            .connectionTimeout(Duration.ofMillis(Math.min(t, 10_000)))
            .socketTimeout(Duration.ofMillis(t))
            .build())
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .overrideConfiguration(o -> o.retryStrategy(AwsRetryStrategy.doNotRetry()));
    String profile = root.profile();
    URI endpoint = endpointOverride != null ? endpointOverride
        : root.endpoint() != null ? root.endpoint() : configuredEndpoint(profile);
    if (endpoint != null) {
      b.endpointOverride(endpoint).forcePathStyle(true);
    } else {
      b.crossRegionAccessEnabled(true);
    }
    b.region(region(profile));
    b.credentialsProvider(credentials(profile));
    return b.build();
  }

  /** An endpoint from the environment, system properties or the profile; null for AWS's own. */
  static URI configuredEndpoint(String profile) {
    for (String v : new String[] {System.getProperty("aws.endpointUrlS3"), System.getProperty("aws.endpointUrl"),
        System.getenv("AWS_ENDPOINT_URL_S3"), System.getenv("AWS_ENDPOINT_URL")}) {
      if (v != null && !v.isBlank()) {
        return URI.create(v.trim());
      }
    }
    try {
      String name = profile != null ? profile : ProfileFileSystemSetting.AWS_PROFILE.getStringValueOrThrow();
      Optional<String> url = ProfileFile.defaultProfileFile().profile(name).flatMap(p -> p.property("endpoint_url"));
      return url.filter(u -> !u.isBlank()).map(u -> URI.create(u.trim())).orElse(null);
    } catch (RuntimeException e) {
      return null; // no profile files, or no such profile
    }
  }

  private static Region region(String profile) {
    try {
      DefaultAwsRegionProviderChain.Builder c = DefaultAwsRegionProviderChain.builder();
      if (profile != null) {
        c.profileName(profile);
      }
      return c.build().getRegion();
    } catch (RuntimeException e) { // SdkException: nothing found
      return Region.US_EAST_1;
    }
  }

  private static AwsCredentialsProvider credentials(String profile) {
    if ("true".equals(org.chunkcdm.blosc.internal.Settings.S3_ANONYMOUS.choice())) {
      return AnonymousCredentialsProvider.create();
    }
    AwsCredentialsProvider chain = profile != null ? ProfileCredentialsProvider.create(profile)
        : DefaultCredentialsProvider.builder().build();
    try {
      chain.resolveCredentials();
      return chain;
    } catch (RuntimeException e) { // SdkException: nothing found
      return AnonymousCredentialsProvider.create(); // no credentials anywhere: a public bucket
    }
  }
}
